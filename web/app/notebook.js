// notebook.js — a lesson page's PyTorch side as a script or a Jupyter notebook (nbformat 4): the PyTorch cells
// (cells/<id>.py, cells with torch: true) in page order, and for the notebook the page's prose in one language
// around them, with the course's helper module (lessons/pt2e_course.py) written by its first cell, so the
// notebook runs as it is with torch 2.x + torchao 0.18 + ExecuTorch 1.5. No DOM: the page's "download as
// notebook" button and the tests (tests/api/pytorch_scripts.test.js) build the same thing.
//
//   lessonScript(lesson)                          -> Python source: every PyTorch cell, in order
//   lessonNotebook(lesson, prose, helper, lang)   -> the notebook as a plain object (JSON.stringify it)
import { splitCells } from './prose_split.js';
import { tr } from './cell_runner.js';

export const HELPER_FILE = 'lessons/pt2e_course.py';

// loadLesson gives a PyTorch cell's .py text as `torch` (null for the others).
const torchCells = (lesson) => lesson.cells.filter((c) => typeof c.torch === 'string');

export function lessonScript(lesson) {
  const head = `# ${lesson.id} — ${tr(lesson.title, 'en')}: the page's PyTorch cells, in order (needs lessons/pt2e_course.py beside it)\n`;
  return head + torchCells(lesson).map((c) => `\n# %% cell ${c.id}: ${tr(c.title, 'en')}\n${c.torch.trimEnd()}\n`).join('');
}

const lines = (text) => text.split(/(?<=\n)/);
const markdown = (text) => ({ cell_type: 'markdown', metadata: {}, source: lines(text) });
const code = (text) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: lines(text) });

export function lessonNotebook(lesson, prose, helper, lang = 'en') {
  const byId = new Map(torchCells(lesson).map((c) => [c.id, c]));
  const cells = [code(`%%writefile pt2e_course.py\n${helper}`)];
  for (const part of splitCells(prose)) {
    if (part.cell === undefined) { cells.push(markdown(part.markdown.trim() + '\n')); continue; }
    const c = byId.get(part.cell);
    if (c) cells.push(code(c.torch.trimEnd() + '\n'));
  }
  return {
    nbformat: 4,
    nbformat_minor: 4,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      pt2e_playground: { lesson: lesson.id, lang },
    },
    cells,
  };
}
