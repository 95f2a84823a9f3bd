// Test page: send one action with JSON arguments and show the response.
import { Client, sendOnce, loadSchemas } from "./client.js";

const $ = (id) => document.getElementById(id);
const client = new Client();
const ACTIONS = ["get_status", "get_skill_profile", "read_file", "write_file", "create_file", "create_folder",
  "list_folder", "patch_file", "run_command", "download_asset"];

for (const a of ACTIONS) $("actions").append(new Option(a));
loadSchemas().then((v) => { client.validator = v; });

function show(value) {
  $("out").textContent = typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

async function send(viaPort) {
  let args;
  try {
    args = JSON.parse($("args").value || "{}");
  } catch (e) {
    return show(`Arguments are not JSON: ${e.message}`);
  }
  const action = $("action").value.trim();
  const t0 = performance.now();
  try {
    const res = viaPort ? await client.request(action, args) : await sendOnce(action, args, { validator: client.validator });
    show({ ms: Math.round(performance.now() - t0), response: res });
  } catch (e) {
    show(`${e.code || "ERROR"}: ${e.message}`);
  }
}

$("port").addEventListener("click", () => send(true));
$("once").addEventListener("click", () => send(false));
