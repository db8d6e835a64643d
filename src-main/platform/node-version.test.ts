import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, REQUIRED_NODE_MAJOR } from './node-version.mjs';

const fromRoot = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the Node version', () => {
  it('lets the bundled major and later ones run, and tells an older one what to install and how', () => {
    expect(nodeVersionProblem(`${REQUIRED_NODE_MAJOR}.0.0`)).toBeUndefined();
    expect(nodeVersionProblem(`${REQUIRED_NODE_MAJOR + 2}.1.0`)).toBeUndefined();
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
    expect(nodeVersionProblem('20.20.2')).toBe(
      `Relay Console needs Node ${REQUIRED_NODE_MAJOR} or later (this is Node 20.20.2): \`source scripts/use-node.sh\` fetches it into .tools/node and puts it first on PATH, or install Node ${REQUIRED_NODE_MAJOR} from nodejs.org.`,
    );
  });

  it('is the one major that package.json, its Node types and scripts/use-node.sh name', () => {
    const pkg = JSON.parse(fromRoot('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
    expect(pkg.engines.node).toBe(`>=${REQUIRED_NODE_MAJOR}`);
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${REQUIRED_NODE_MAJOR}\\.`));
    expect(fromRoot('scripts/use-node.sh')).toMatch(new RegExp(`^NODE_MAJOR=${REQUIRED_NODE_MAJOR}$`, 'm'));
  });
});
