import { describe, expect, it } from 'vitest';
import { locateYamlPath, pathOfProblem } from './yaml-locate';

const TEXT = `# comment
api:
  listen: nowhere
streams:
  door: nope://x
  yard:
    - rtsp://a
    - bad://b
`;

describe('locateYamlPath', () => {
  it.each([
    [['api'], { line: 2, column: 1 }],
    [['api', 'listen'], { line: 3, column: 3 }],
    [['streams', 'door'], { line: 5, column: 3 }],
    [['streams', 'yard', '1'], { line: 8, column: 7 }],
    [['streams', 'ghost'], { line: 4, column: 1 }],
  ])('%j is at %j', (path, position) => {
    expect(locateYamlPath(TEXT, path)).toEqual(position);
  });

  it('finds nothing in a file without the section', () => {
    expect(locateYamlPath('log:\n  level: info\n', ['api', 'listen'])).toBeUndefined();
  });
});

describe('pathOfProblem', () => {
  it.each([
    ['streams.door: streams: source not supported: nope', ['streams', 'door']],
    ['config /x/relay.yaml: api.listen: the port must be a number', ['api', 'listen']],
    ['config /x/relay.yaml: unknown key api.lisen (did you mean api.listen?); Relay Console does not read it', ['api', 'lisen']],
    ['invalid YAML: bad indentation', undefined],
  ])('%s', (message, path) => {
    expect(pathOfProblem(message)).toEqual(path);
  });
});
