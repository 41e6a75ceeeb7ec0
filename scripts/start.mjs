// `npm start`: install what is missing, build the web app and the server, serve Lantern (embedded storage
// under data/).
import { spawn } from 'node:child_process';
import { ensureServerBuild } from './buildServer.mjs';
import { ensureDependencies, ensureWebBuild, root } from './ensure.mjs';

await ensureDependencies();
ensureWebBuild();
const main = await ensureServerBuild();
const server = spawn(process.execPath, ['--enable-source-maps', main, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
