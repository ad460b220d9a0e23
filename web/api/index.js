// index.js — the package's main export: `const pt = await loadEngine()`.
// Every area of the API lives in its own file and installs itself onto `pt`
// (core.js: Tensor + generator; quant.js, graph.js, pt2e.js, train.js, data.js, qat.js, debugger.js, lower.js).
// Names follow torchao.
//
//   import { loadEngine } from 'pt2e-playground';
//   const pt = await loadEngine();
//   pt.manual_seed(0);
//   console.log(pt.randn([20000]).data().slice(0, 3));   // = torch.randn(20000)[:3]
import { loadModule, makeTools, scope, errors } from './engine.js';
import { installCore } from './core.js';
import { installQuant } from './quant.js';
import { installGraph } from './graph.js';
import { installPt2e } from './pt2e.js';
import { installTrain } from './train.js';
import { installData } from './data.js';
import { installQat } from './qat.js';
import { installDebugger } from './debugger.js';
import { installLower } from './lower.js';

const installers = [
  installCore, installQuant, installGraph, installPt2e, installTrain, installData, installQat, installDebugger, installLower,
];

let enginePromise = null;

export function loadEngine() {
  enginePromise ??= (async () => {
    const M = await loadModule();
    const tools = makeTools(M);
    const pt = { errors, scope, check: tools.check, memory_stats: tools.memory_stats, ...errors, module: M };
    for (const install of installers) install(pt, M, tools);
    return pt;
  })();
  return enginePromise;
}

export { errors };
