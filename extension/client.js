// DeskBridge reference client: promise-based requests to the native host
// "com.deskbridge.host" over chrome.runtime.connectNative (one long-lived
// port, responses matched by id, out of order allowed) or one-shot
// chrome.runtime.sendNativeMessage. Protocol: docs/protocol.md.

export const HOST = "com.deskbridge.host";
export const VERSION = 1;
export const DEFAULT_TIMEOUT_MS = 30000;
/** MAX_MESSAGE_BYTES is the host's cap on one message's payload, both ways (docs/protocol.md). */
export const MAX_MESSAGE_BYTES = 1048576;

/** DeskBridgeError is a failed response ({code, message, rule}) or a client-side failure (code "TRANSPORT"/"TIMEOUT"/"INVALID_ARGUMENTS"/"TOO_LARGE"). */
export class DeskBridgeError extends Error {
  constructor(code, message, rule) {
    super(message);
    this.name = "DeskBridgeError";
    this.code = code;
    if (rule) this.rule = rule;
  }
}

/** envelope builds a v1 request. */
export function envelope(action, args = {}, id = crypto.randomUUID()) {
  return { version: VERSION, id, action, arguments: args };
}

/** unwrap returns a response's data or throws its error as a DeskBridgeError. */
export function unwrap(response) {
  if (!response || typeof response !== "object") {
    throw new DeskBridgeError("TRANSPORT", "the host sent no response");
  }
  if (response.success) return response.data;
  const e = response.error || {};
  throw new DeskBridgeError(e.code || "TRANSPORT", e.message || "request failed", e.rule);
}

function lastError() {
  const e = chrome.runtime.lastError;
  return e ? e.message : "native host disconnected";
}

function check(validator, action, args) {
  if (!validator) return;
  const problems = validator(action, args);
  if (problems && problems.length) {
    throw new DeskBridgeError("INVALID_ARGUMENTS", `${action}: ${problems.join("; ")}`);
  }
}

/**
 * checkSize refuses a request whose JSON is over maxBytes of UTF-8: the
 * host would discard it unread and answer with id "", which names no
 * request. Nothing is sent.
 */
function checkSize(req, maxBytes) {
  const n = new TextEncoder().encode(JSON.stringify(req)).length;
  if (n > maxBytes) {
    throw new DeskBridgeError("TOO_LARGE", `${req.action}: the request is ${n} bytes, over the ${maxBytes}-byte message cap; send less (write a large file in parts)`);
  }
}

/**
 * sendOnce sends one request with chrome.runtime.sendNativeMessage: the
 * browser starts a host process for it and stops it after the response.
 * Resolves with the whole response envelope.
 */
export function sendOnce(action, args = {}, { host = HOST, validator = null, maxBytes = MAX_MESSAGE_BYTES } = {}) {
  check(validator, action, args);
  const req = envelope(action, args);
  checkSize(req, maxBytes);
  return new Promise((resolve, reject) => {
    chrome.runtime.sendNativeMessage(host, req, (response) => {
      if (chrome.runtime.lastError || response === undefined) {
        reject(new DeskBridgeError("TRANSPORT", lastError()));
      } else {
        resolve(response);
      }
    });
  });
}

/**
 * Client keeps one port to the host. request() may be called many times
 * without waiting; each promise resolves with its own response envelope.
 * The port is opened lazily and reopened after a disconnect.
 */
export class Client {
  constructor({ host = HOST, timeoutMs = DEFAULT_TIMEOUT_MS, validator = null, maxBytes = MAX_MESSAGE_BYTES } = {}) {
    this.host = host;
    this.timeoutMs = timeoutMs;
    this.maxBytes = maxBytes; // requests over it are refused before sending (TOO_LARGE)
    this.validator = validator; // (action, args) => [problem strings]; see loadSchemas
    this.port = null;
    this.pending = new Map(); // id -> {resolve, reject, timer}
  }

  connect() {
    if (this.port) return this.port;
    const port = chrome.runtime.connectNative(this.host);
    port.onMessage.addListener((msg) => this.#deliver(msg));
    port.onDisconnect.addListener(() => this.#fail(port, lastError()));
    this.port = port;
    return port;
  }

  /** request sends action with args and resolves with the response envelope. */
  request(action, args = {}, { timeoutMs = this.timeoutMs } = {}) {
    const req = envelope(action, args);
    try {
      check(this.validator, action, args);
      checkSize(req, this.maxBytes);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(req.id);
        reject(new DeskBridgeError("TIMEOUT", `${action}: no response within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(req.id, { resolve, reject, timer });
      try {
        this.connect().postMessage(req);
      } catch (e) {
        this.#settle(req.id, (p) => p.reject(new DeskBridgeError("TRANSPORT", String(e.message || e))));
      }
    });
  }

  /** call is request() that resolves with data or throws DeskBridgeError. */
  async call(action, args = {}, opts = {}) {
    return unwrap(await this.request(action, args, opts));
  }

  /** close disconnects the port; the host sees EOF and exits. */
  close() {
    if (!this.port) return;
    const port = this.port;
    port.disconnect();
    this.#fail(port, "port closed by the client");
  }

  /**
   * deliver settles the request a response names. A failure with id ""
   * answers a frame the host could not read (over the cap, not JSON):
   * it names no request, so it settles the oldest pending one rather than
   * leave that to time out. (checkSize keeps over-cap requests from being
   * sent, so this is the rare case of a browser that serialises a request
   * larger than JSON.stringify does.)
   */
  #deliver(msg) {
    let id = msg && typeof msg.id === "string" ? msg.id : "";
    if (id === "" && msg && msg.success === false) {
      id = this.pending.keys().next().value ?? "";
    }
    this.#settle(id, (p) => p.resolve(msg));
  }

  #settle(id, fn) {
    const p = this.pending.get(id);
    if (!p) return; // late or unknown
    this.pending.delete(id);
    clearTimeout(p.timer);
    fn(p);
  }

  #fail(port, message) {
    if (this.port !== port) return;
    this.port = null;
    for (const id of [...this.pending.keys()]) {
      this.#settle(id, (p) => p.reject(new DeskBridgeError("TRANSPORT", message)));
    }
  }
}

/**
 * readFileAll reads a whole file through read_file pages: it follows
 * next_offset while the host answers truncated, and returns the pieces
 * joined (strings for utf-8; for base64 the array of base64 pages).
 */
export async function readFileAll(client, path, { encoding = "utf-8", maxPages = 1000 } = {}) {
  const pages = [];
  let offset = 0;
  for (let i = 0; i < maxPages; i++) {
    const data = await client.call("read_file", { path, encoding, offset });
    pages.push(data.content);
    if (!data.truncated) {
      return { content: encoding === "utf-8" ? pages.join("") : pages, size: data.size, encoding };
    }
    if (typeof data.next_offset !== "number" || data.next_offset <= offset) {
      throw new DeskBridgeError("TRANSPORT", "read_file: truncated page without a forward next_offset");
    }
    offset = data.next_offset;
  }
  throw new DeskBridgeError("TRANSPORT", `read_file: more than ${maxPages} pages`);
}

/**
 * loadSchemas loads schemas.json (written by `deskbridge schema`) from the
 * extension package when present and returns a validator for Client /
 * sendOnce; it returns null when there is no file. The expected shape is
 * {"actions": {"<action>": <JSON Schema of arguments>}}. The native host
 * stays authoritative; this only catches mistakes early.
 */
export async function loadSchemas(url = chrome.runtime.getURL("schemas.json")) {
  let doc;
  try {
    const res = await fetch(url);
    if (!res.ok) return null;
    doc = await res.json();
  } catch {
    return null;
  }
  const actions = (doc && doc.actions) || {};
  return (action, args) => {
    const schema = actions[action];
    return schema ? validate(schema, args, "arguments") : [];
  };
}

const TYPES = {
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  array: Array.isArray,
  string: (v) => typeof v === "string",
  integer: Number.isInteger,
  number: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
};

/**
 * validate checks value against the JSON Schema subset schemas.json uses: type, enum, const,
 * required, properties, propertyNames, items, minimum, maximum, minLength, maxLength, pattern,
 * minItems, maxItems, and the cross-member rules allOf, anyOf, oneOf and if/then (one of path and
 * url, a message with changes …), which say what the host refuses.
 */
export function validate(schema, value, where = "value") {
  const out = [];
  const types = schema.type ? [].concat(schema.type) : null;
  if (types && !types.some((t) => TYPES[t] && TYPES[t](value))) {
    return [`${where} must be ${types.join(" or ")}`];
  }
  if (schema.enum && !schema.enum.some((e) => e === value)) out.push(`${where} must be one of ${schema.enum.join(", ")}`);
  if ("const" in schema && value !== schema.const) out.push(`${where} must be ${JSON.stringify(schema.const)}`);
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${where} must be ≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${where} must be ≤ ${schema.maximum}`);
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) out.push(`${where} is too short`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) out.push(`${where} is too long`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) out.push(`${where} does not have the form the host takes`);
  }
  if (TYPES.object(value)) {
    for (const r of schema.required || []) if (!(r in value)) out.push(`${where}.${r} is required`);
    for (const [k, s] of Object.entries(schema.properties || {})) {
      if (k in value) out.push(...validate(s, value[k], `${where}.${k}`));
    }
  }
  if (TYPES.object(value) && schema.propertyNames) {
    for (const k of Object.keys(value)) out.push(...validate(schema.propertyNames, k, `${where} member name ${JSON.stringify(k)}`));
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push(`${where} has too few elements`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${where} has too many elements`);
    if (schema.items) value.forEach((v, i) => out.push(...validate(schema.items, v, `${where}[${i}]`)));
  }
  const holds = (s) => validate(s, value, where).length === 0;
  for (const s of schema.allOf || []) out.push(...validate(s, value, where));
  if (schema.anyOf && !schema.anyOf.some(holds)) out.push(`${where} must give one of the members it needs (see the action's section in docs/protocol.md)`);
  if (schema.oneOf && schema.oneOf.filter(holds).length !== 1) out.push(`${where} must give exactly one of the members it takes together (see docs/protocol.md)`);
  if (schema.if && schema.then && holds(schema.if)) out.push(...validate(schema.then, value, where));
  return out;
}
