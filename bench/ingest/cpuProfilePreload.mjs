// Preloaded into the server with NODE_OPTIONS="--import=<this file>" by `run.ts --cpu-prof`
// (Node 20 refuses --cpu-prof in NODE_OPTIONS, and the harness owns the server's command line).
// Profiles the main thread from start to exit and writes a .cpuprofile into LANTERN_BENCH_PROF_DIR.
// Plain JS: it runs before tsx is loaded.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.LANTERN_BENCH_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  // Posts on a main-thread session complete synchronously, so this works inside 'exit'.
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(join(dir, `server.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
