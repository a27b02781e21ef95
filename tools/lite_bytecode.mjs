// Compile the browser edition's Python archives with the site's own Pyodide, in Node.
//
//     node tools/lite_bytecode.mjs PYODIDE_DIR FOLDER
//
// PYODIDE_DIR is the npm `pyodide` package (the core the site serves); FOLDER holds the site's
// wheels and python_stdlib.zip, which are rewritten in place with bytecode beside their sources.
// The work itself is Python: tools/lite_bytecode.py (which says why), run inside this Pyodide.
// One line on success; on failure one line naming what went wrong, and exit 1.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [pyodideDir, folder] = process.argv.slice(2);
if (!pyodideDir || !folder) {
  console.error("usage: node tools/lite_bytecode.mjs PYODIDE_DIR FOLDER");
  process.exit(2);
}
const fail = (message) => {
  console.error(`lite bytecode: ${message}`);
  process.exit(1);
};
// Every wait has a deadline: Pyodide's start and the compiling take 10-20 s on a loaded machine.
const deadline = setTimeout(() => fail("did not finish within 300 s"), 300_000);

try {
  const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
  // A fixed hash seed: marshal writes sets in hash order, so the same sources give the same bytes.
  const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/", env: { PYTHONHASHSEED: "0" } });
  pyodide.FS.mkdir("/site");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(folder) }, "/site");
  const here = dirname(fileURLToPath(import.meta.url));
  pyodide.FS.mkdir("/tool"); // in Pyodide's own in-memory file system
  pyodide.FS.writeFile("/tool/lite_bytecode.py", readFileSync(join(here, "lite_bytecode.py")));
  const summary = pyodide.runPython(`
import site, sys
sys.path.insert(0, "/tool")
import lite_bytecode
stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))
lite_bytecode.main("/site", site.getsitepackages()[0], stdlib_zip)
`);
  console.log(`lite bytecode: ${summary}`);
} catch (error) {
  fail(String(error && error.message ? error.message.trim().split("\n").slice(-1)[0] : error));
}
clearTimeout(deadline);
process.exit(0);
