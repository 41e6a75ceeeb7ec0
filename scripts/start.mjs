// `npm start`: install what is missing, build the web app, serve Lantern (embedded storage under data/).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild, root } from './ensure.mjs';

ensureDependencies();
ensureWebBuild();
const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
