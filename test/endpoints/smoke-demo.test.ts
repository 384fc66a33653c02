import request from 'supertest';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

describe('demo app', () => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await startDemoApp();
  });
  afterAll(async () => demo.close());

  it('answers an object', async () => {
    const res = await request(demo.app).get('/v2/id/object/1482');
    expect(res.status).toBe(200);
  });
});
