import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import type { CommandContext } from '../main.js';
import { loadProject } from '../project.js';
import { addProjectOptions, type ProjectFlags } from './shared.js';

interface ReviewFlags extends ProjectFlags {
  base?: string;
  out: string;
  json?: boolean;
  failOn: string;
  app?: string;
  concurrency: string;
}

const FAIL_ON = ['none', 'warning', 'new-warning'];

export default function register(program: Command, ctx: CommandContext): void {
  addProjectOptions(
    program
      .command('review')
      .description(
        'Draw every view and screen a change added, changed or removed, before and after, with sample data, and write a side-by-side report.',
      ),
  )
    .option('--base <ref>', 'the revision to compare with (default: the merge base with main)')
    .option('--out <dir>', 'where the report is written', 'review')
    .option('--json', 'print the report as one JSON document')
    .option(
      '--fail-on <level>',
      'exit 1 on any warning (`warning`), on a warning the change brought (`new-warning`), or never (`none`)',
      'none',
    )
    .option('--app <dir>', 'the built app holding review.html (default: dist/ in the project)')
    .option('--concurrency <n>', 'pages drawn at once', '2')
    .addHelpText(
      'after',
      `
Examples:
  $ wastegen review                                 # against the merge base with main
  $ wastegen review --base origin/main --out review/ --fail-on warning

Reads definitions/ at the base revision with git and compares it with the working tree. Each
definition that changed is drawn in Chromium (CHROMIUM_PATH; else Debian's chromium-headless-shell
when installed, else /usr/bin/chromium) from the
built app's review.html, before and after, at 1366×768 and 1920×1080: the list, the add, edit and
查看 dialogs and the full-page form of a view; a screen as it shows. Nothing changed: nothing is drawn
and Chromium is not started.

Writes <out>/index.html (a card per definition: before, after and their difference overlaid, the
changes in Chinese, the warnings), <out>/summary.md for a pull-request comment, <out>/review.json
and the PNGs. The same inputs give the same bytes.

Warnings: a column under the fixed 操作 column at 1366 px, a form wider than its dialog, a label cut
off, a select or cell showing a bare id, a chart dropping or overlapping axis labels, a dialog
taller than the window.

Exit codes: 0 ok, 1 an invalid changed definition or warnings with --fail-on, 2 usage (unknown base, no built app, no Chromium).`,
    )
    .action(async (flags: ReviewFlags) => {
      if (!FAIL_ON.includes(flags.failOn))
        throw new CliError(`--fail-on ${flags.failOn}: expected one of ${FAIL_ON.join(', ')}`, EXIT.usage);
      const concurrency = Number(flags.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 8)
        throw new CliError(`--concurrency ${flags.concurrency}: expected a whole number from 1 to 8`, EXIT.usage);
      const project = loadProject({ cwd: flags.cwd, config: flags.config });
      const { defaultBase, definitionFilesAt, resolveRevision } = await import('../review/git.js');
      const { reviewChanges } = await import('../review/changes.js');
      const baseRef = flags.base ?? defaultBase(project.root);
      const commit = resolveRevision(project.root, baseRef);
      const { items, unchanged, before, after } = reviewChanges(project, definitionFilesAt(project, commit), readDefinitionFiles(project));
      const outDir = resolve(project.root, flags.out);
      const { drawItems, reviewBrowser } = await import('../review/run.js');
      const shots = items.length
        ? await drawItems(
            items,
            { before, after },
            {
              appDir: flags.app ? resolve(project.root, flags.app) : join(project.root, 'dist'),
              chromium: reviewBrowser(),
              concurrency,
              progress: (done, total) => {
                if (!flags.json && process.stderr.isTTY) process.stderr.write(`\rreview: drawn ${done}/${total}`);
              },
            },
          )
        : new Map();
      if (!flags.json && process.stderr.isTTY && items.length) process.stderr.write('\r\x1b[K');
      const { writePictures, writeReport } = await import('../review/report.js');
      const base = flags.base ? `${flags.base} (${commit.slice(0, 12)})` : commit.slice(0, 12);
      const doc = writePictures(outDir, base, items, shots, unchanged);
      writeReport(outDir, doc);
      const out = (line: string) => ctx.output.out(line);
      if (flags.json) out(JSON.stringify(doc, null, 2));
      else {
        for (const d of doc.definitions) {
          const sign = d.status === 'added' ? '+' : d.status === 'removed' ? '-' : '~';
          out(
            `${sign} ${d.file}  ${d.kind} ${d.id}${d.name ? ` ${d.name}` : ''}: ${d.changes.length} change(s), ${d.pictures.length} picture(s)`,
          );
          for (const w of d.warnings) out(`    warning${w.new ? ' (new)' : ''}: ${w.message} [${w.picture}]`);
          for (const e of d.errors) out(`    page error: ${e}`);
          for (const p of d.problems) ctx.output.err(p);
        }
        const s = doc.summary;
        const rel = project.rel(join(outDir, 'index.html'));
        out(
          items.length
            ? `review: ${s.changed} changed, ${s.added} added, ${s.removed} removed, ${s.unchanged} unchanged; ${s.pictures} pictures, ${s.warnings} warning(s) (${s.newWarnings} new); report in ${rel}`
            : `review: no definition changed since ${base} (${s.unchanged} unchanged); report in ${rel}`,
        );
      }
      const failing = flags.failOn === 'warning' ? doc.summary.warnings : flags.failOn === 'new-warning' ? doc.summary.newWarnings : 0;
      if (doc.summary.invalid && !flags.json)
        ctx.output.err(
          `wastegen: ${doc.summary.invalid} changed definition(s) are invalid; their pages show the problems (the report is written)`,
        );
      // An invalid definition fails the review whatever --fail-on says: staff would get an error panel.
      ctx.setExit(failing || doc.summary.invalid ? EXIT.invalid : EXIT.ok);
    });
}
