// Private copies of the binaries a long interop run calls, so that a rebuild
// during the run changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

/** Copies an executable into `work`/bin and checks that the copy runs (retrying while it is being rebuilt). */
export function snapshot(file, work, who) {
  const dir = path.join(work, 'bin');
  fs.mkdirSync(dir, { recursive: true });
  const copy = path.join(dir, path.basename(file));
  for (let attempt = 0; ; attempt++) {
    try {
      fs.copyFileSync(file, copy);
      fs.chmodSync(copy, 0o755);
      execFileSync(copy, ['--help'], { stdio: 'ignore', timeout: 30000 });
      return copy;
    } catch (e) {
      if (attempt >= 10) {
        process.stderr.write(`${who}: ${file} does not run: ${e.message}\n`);
        process.exit(2);
      }
      execFileSync('sleep', ['3']);
    }
  }
}
