// Tests of the starting point: run them with node --test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { greeting } from "../src/greeting.js";

test("greeting", () => {
  assert.equal(greeting(), "Hello from {{name}}");
});
