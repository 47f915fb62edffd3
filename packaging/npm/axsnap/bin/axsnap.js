#!/usr/bin/env node
// Runs the axsnap binary of this platform, installed as an optional dependency
// (`@axsnap/<platform>-<arch>`). Standard input and output are the binary's own, so
// `npx axsnap mcp` speaks MCP over stdio as the binary does.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

// The platforms a package is published for: `process.platform`-`process.arch`.
const PACKAGES = {
  "linux-x64": { name: "@axsnap/linux-x64", exe: "axsnap" },
  "win32-x64": { name: "@axsnap/win32-x64", exe: "axsnap.exe" },
};

function binaryPath() {
  if (process.env.AXSNAP_BINARY) {
    return process.env.AXSNAP_BINARY;
  }
  const key = `${process.platform}-${process.arch}`;
  const pkg = PACKAGES[key];
  if (!pkg) {
    fail(
      `no axsnap binary is published for ${key} (there are: ${Object.keys(PACKAGES).join(", ")}).\n` +
        "Build it from source with `cargo install axsnap`, or set AXSNAP_BINARY to a binary you built.",
    );
  }
  let manifest;
  try {
    manifest = require.resolve(`${pkg.name}/package.json`);
  } catch {
    fail(
      `the package ${pkg.name}, which holds the binary for ${key}, is not installed.\n` +
        "npm leaves optional dependencies out when installing with --no-optional or --omit=optional;\n" +
        `install it with \`npm install ${pkg.name}\`, or use \`uvx axsnap\` or \`cargo install axsnap\`.`,
    );
  }
  return path.join(path.dirname(manifest), "bin", pkg.exe);
}

function fail(message) {
  process.stderr.write(`axsnap: ${message}\n`);
  process.exit(1);
}

const binary = binaryPath();
if (process.platform !== "win32") {
  // A tarball unpacked by a tool that drops modes leaves the binary unrunnable.
  try {
    fs.accessSync(binary, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(binary, 0o755);
    } catch {
      // Spawning reports the real error below.
    }
  }
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
// An MCP client stops a stdio server with a signal; the binary gets it too.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (!child.killed) {
      child.kill(signal);
    }
  });
}
child.on("error", (err) => fail(`could not run ${binary}: ${err.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the binary saw.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
