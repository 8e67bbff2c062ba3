// A Node module loader that runs this package's TypeScript sources in a child process (the crash
// test spawns real processes, which vitest does not transform): `.js` specifiers that name a `.ts`
// file resolve to it, and `.ts` files have their types stripped by oxc (through rolldown, which
// vite, and so vitest, already installs; it loads in ~0.2 s where `typescript` takes ~2 s).
// Usage: node --import ./tests/helpers/ts-loader.mjs file.ts
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

if (!process.env.RETRYSAFE_TS_LOADER_HOOKS) {
  process.env.RETRYSAFE_TS_LOADER_HOOKS = '1';
  register(import.meta.url, import.meta.url);
}

export async function resolve(specifier, context, next) {
  if ((specifier.startsWith('.') || specifier.startsWith('/')) && specifier.endsWith('.js') && context.parentURL) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (!existsSync(fileURLToPath(new URL(specifier, context.parentURL))) && existsSync(fileURLToPath(candidate))) {
      return { url: candidate.href, shortCircuit: true };
    }
  }
  return next(specifier, context);
}

let oxc;
export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const require = createRequire(import.meta.url);
  oxc ??= await import(pathToFileURL(createRequire(require.resolve('vite')).resolve('rolldown/experimental')).href);
  const file = fileURLToPath(url);
  const { code, errors } = oxc.transformSync(file, readFileSync(file, 'utf8'), { lang: 'ts' });
  if (errors.length > 0) throw new Error(`${file}: ${errors.map((e) => e.message).join('; ')}`);
  return { format: 'module', source: code, shortCircuit: true };
}
