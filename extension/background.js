// Service worker of the reference extension. It exposes the client on
// globalThis.deskbridge so that the page, the DevTools console and the
// end-to-end tests (which evaluate JS here over the DevTools protocol) can
// call the host.
import { Client, sendOnce, readFileAll, loadSchemas, unwrap, HOST } from "./client.js";

const client = new Client();

/** benchOneShot sends n one-shot get_status requests in sequence; returns elapsed ms. */
async function benchOneShot(n, host = HOST) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) unwrap(await sendOnce("get_status", {}, { host }));
  return performance.now() - t0;
}

/**
 * benchPort sends n requests (get_status unless action and args are given)
 * over one port, at most `window` in flight; returns elapsed ms.
 */
async function benchPort(n, window = 32, { host = HOST, action = "get_status", args = {} } = {}) {
  const c = new Client({ host });
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      unwrap(await c.request(action, args));
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, n) }, worker));
  const ms = performance.now() - t0;
  c.close();
  return ms;
}

globalThis.deskbridge = { HOST, Client, client, sendOnce, readFileAll, loadSchemas, benchOneShot, benchPort };
