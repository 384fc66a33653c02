/** Object endpoints (placeholder until the single-object endpoint lands). */
import { Router } from 'express';
import type { AppContext } from '../app-context.js';

/** Routes under /v2 for objects. */
export function objectRoutes(_ctx: AppContext): Router {
  return Router();
}
