/**
 * The static checks of `npm test`, `npm run typecheck` and `npm run lint`, side by side: each is one process
 * that keeps one core busy, and the machine that runs CI has two. Each one's output is printed whole when it
 * ends (not interleaved); the exit code is the first failure's, 0 when both pass.
 */
import { spawn } from 'node:child_process';

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const started = Date.now();
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`> ${script}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds} s\n${output}`);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all(['typecheck', 'lint'].map(run));
process.exit(codes.find((code) => code !== 0) ?? 0);
