import { describe, expect, it } from 'vitest';
import { describeBotSyntaxError, findBotSyntaxError } from './botSyntax';

describe('findBotSyntaxError (QuickJS, compile only)', () => {
  it('accepts code that parses, CommonJS or with export statements, and runs none of it', async () => {
    expect(await findBotSyntaxError('exports.handler = async (medplum, event) => event.input;')).toBeUndefined();
    expect(await findBotSyntaxError('export async function handler() {\n  return 1;\n}\n')).toBeUndefined();
    // Only compiled: a top-level throw or endless loop is not run.
    expect(await findBotSyntaxError('while (true) {}\nthrow new Error("ran");')).toBeUndefined();
  });

  it('answers the engine message with the line and column in the code as given', async () => {
    expect(await findBotSyntaxError('const a = 1;\nlet b = (;\nexports.handler = () => b;')).toEqual({
      message: "SyntaxError: unexpected token in expression: ';'",
      line: 2,
      column: 10,
      atEnd: false,
    });
    // The first line's column does not count the module wrapper.
    expect(await findBotSyntaxError('exports.handler = async () => { return 1 +; };')).toMatchObject({
      line: 1,
      column: 43,
    });
  });

  it('places a block left open at the end of the code, and says so', async () => {
    const code = 'exports.handler = async () => {\n  if (true) {\n    return 1;\n  }\n';
    const error = await findBotSyntaxError(code);
    expect(error).toMatchObject({ line: 5, column: 1, atEnd: true });
    expect(describeBotSyntaxError(error!)).toMatch(
      /^The bot's code does not parse: SyntaxError: .+ \(line 5, column 1, at the end of the code\)$/,
    );
  });
});
