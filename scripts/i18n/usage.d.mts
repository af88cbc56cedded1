export function keyUses(namespaces: Set<string>): {
  uses: { key: string; file: string; line: number }[];
  built: { text: string; file: string; line: number }[];
};
