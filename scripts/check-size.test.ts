import { describe, expect, it } from 'vitest';
import { offendersOf } from './check-size';

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('check-size', () => {
  it('names a function over 80 lines and leaves one of 80', () => {
    const text = `export function long() {\n${body(80)}\n}\nexport const short = () => {\n${body(78)}\n};\n`;
    expect(offendersOf('server/src/x/service.ts', text).map((o) => [o.key, o.lines])).toEqual([['server/src/x/service.ts long', 82]]);
  });

  it('counts a file over 400 lines', () => {
    const text = Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
    expect(offendersOf('web/src/x.ts', text)).toEqual([{ key: 'web/src/x.ts', place: 'web/src/x.ts', lines: 401, limit: 400 }]);
  });

  it('lets the route list of routes.ts through, not a long handler inside it', () => {
    const text = `export async function xRoutes(app) {\n  app.get('/a', async () => {\n${body(81)}\n  });\n${body(10)}\n}\n`;
    expect(offendersOf('server/src/x/routes.ts', text).map((o) => o.key)).toEqual(['server/src/x/routes.ts app.get(… /a)']);
  });
});
