import type { Browser, Page } from 'playwright-core';

/**
 * Where one page load spends the browser's time (bench/web): `profileLoad` under the CPU profiler
 * (self and inclusive time per function), `traceLoad` under Chromium's tracing (the renderer main
 * thread by kind of work). Each navigates to `url` and waits until the `loaded` expression holds.
 */
/** One load under the CPU profiler: self time by function and by script, the top entries. */
export async function profileLoad(which: string, page: Page, url: string, loaded: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const t = Date.now();
  await page.goto(url);
  await page.waitForFunction(loaded, undefined, { timeout: 120_000, polling: 16 });
  const wall = Date.now() - t;
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  const byScript = new Map<string, number>();
  for (const [id, ms] of self) {
    const f = byId.get(id)!.callFrame;
    const script = f.url.split('/').pop() || `(${f.functionName || 'program'})`;
    const fn = `${f.functionName || '(anonymous)'} ${script}:${f.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `    ${ms.toFixed(0).padStart(6)} ms  ${k}`);
  // Inclusive time: every sample counts once for each function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, ms] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      const fn = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
      if (seen.has(fn)) continue;
      seen.add(fn);
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + ms);
    }
  }
  console.log(`${which}: profiled load, ${wall} ms to all panels painted; main-thread self time by script:`);
  printTimeline(profile, byId);
  console.log(top(byScript, 12).join('\n'));
  console.log('  by function:');
  console.log(top(byFn, 25).join('\n'));
  console.log('  inclusive, by function:');
  console.log(top(inclusive, Number(process.env.LANTERN_PROFILE_TOP ?? 40)).join('\n'));
  await cdp.detach();
}

type ProfileNode = { callFrame: { url: string; functionName: string } };

/**
 * The load as a timeline: per 100 ms slice from the profile's start, the main thread's time by kind
 * (idle, native work, garbage collection, or the script it ran), so a wait on the network or a
 * chunk shows where it sits between the work.
 */
function printTimeline(profile: { samples?: number[]; timeDeltas?: number[] }, byId: Map<number, ProfileNode>): void {
  const SLICE = 100;
  const slices: Map<string, number>[] = [];
  let t = 0;
  (profile.samples ?? []).forEach((id, i) => {
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    t += ms;
    const f = byId.get(id)!.callFrame;
    const kind =
      f.url
        .split('/')
        .pop()
        ?.replace(/-[\w-]{8}\.js$/, '') ||
      f.functionName ||
      'program';
    const slice = (slices[Math.floor(t / SLICE)] ??= new Map());
    slice.set(kind, (slice.get(kind) ?? 0) + ms);
  });
  console.log('  timeline (ms of each 100 ms slice):');
  slices.forEach((slice, i) => {
    const parts = [...slice]
      .sort((a, b) => b[1] - a[1])
      .filter(([, ms]) => ms >= 5)
      .map(([k, ms]) => `${k} ${ms.toFixed(0)}`);
    console.log(`    ${String(i * SLICE).padStart(5)} ms  ${parts.join(', ')}`);
  });
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** `--trace`: one load under Chromium tracing; self time per event name on the renderer's main thread. */
export async function traceLoad(
  which: string,
  browser: Browser,
  page: Page,
  url: string,
  loaded: string,
): Promise<void> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const t = Date.now();
  await page.goto(url);
  await page.waitForFunction(loaded, undefined, { timeout: 120_000, polling: 16 });
  const wall = Date.now() - t;
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const events = traceEvents
    .filter((e) => e.ph === 'X' && e.dur !== undefined && e.pid === main?.pid && e.tid === main?.tid)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Self time: an event's duration less that of the events nested in it.
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const e of events) {
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (e.dur ?? 0) / 1000);
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    stack.push({ end: e.ts + (e.dur ?? 0), name: e.name });
  }
  console.log(`${which}: traced load, ${wall} ms to all panels painted; renderer main thread self time by event:`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 16))
    console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}
