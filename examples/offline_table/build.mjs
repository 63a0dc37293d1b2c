// npm run build: the engine (clients/engine: its wasm and its JavaScript), this page's
// TypeScript into dist/, and the engine's built files copied into dist/engine/, so that this
// folder then holds everything a static server needs.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const engine = join(here, "..", "..", "clients", "engine");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command, args, cwd) {
  console.log(`> ${command} ${args.join(" ")}   (in ${cwd})`);
  execFileSync(command, args, { cwd, stdio: "inherit" });
}

if (!existsSync(join(engine, "node_modules"))) run(npm, ["ci", "--no-audit", "--no-fund"], engine);
run(npm, ["run", "build"], engine);
rmSync(join(here, "dist"), { recursive: true, force: true });
run(process.execPath, [join(here, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], here);

// The engine as the page imports it (index.html's import map): its modules and its wasm.
const out = join(here, "dist", "engine");
mkdirSync(out, { recursive: true });
const built = join(engine, "dist", "src");
for (const name of readdirSync(built)) if (name.endsWith(".js")) copyFileSync(join(built, name), join(out, name));
copyFileSync(join(engine, "dist", "cardcore.wasm"), join(out, "cardcore.wasm"));
console.log(`built ${join(here, "dist")}`);
