import type { Messages } from '@lingui/core';

/**
 * Right-to-left sentences: every value placed into a message is wrapped in U+2068 FIRST STRONG
 * ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE, so "Anna (sister)", a file name or a number keeps
 * its brackets and its place inside Arabic or Hebrew. Done on the compiled message (each placed
 * argument gets the two marks around it), so plural and select arguments keep their numbers and
 * case names; the count a plural writes (#) is the language's own number and is left as it is.
 * The browser's interpreter (client/i18n/interpret.ts) gives the same text.
 */
export const FSI = '\u2068';
export const PDI = '\u2069';

type Token = string | [name: string, type?: string, format?: unknown];
type Compiled = Messages[string];

export function isolateMessage(message: Compiled): Compiled {
  if (!Array.isArray(message)) return message;
  const out: Token[] = [];
  for (const token of message as Token[]) {
    if (typeof token === 'string') out.push(token);
    else {
      const [name, type, format] = token;
      if (type === 'plural' || type === 'selectordinal' || type === 'select') {
        const cases: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(format as Record<string, unknown>)) cases[k] = k === 'offset' ? v : isolateMessage(v as Compiled);
        out.push([name, type, cases]);
      } else out.push(FSI, token, PDI);
    }
  }
  return out as Compiled;
}

/** Every message of a catalogue, isolated as above. */
export const isolateMessages = (messages: Messages): Messages => Object.fromEntries(Object.entries(messages).map(([k, m]) => [k, isolateMessage(m)]));
