/** A table's head row: each name a column header (scope="col"), which screen readers read out with each cell under it. */
export function ColumnHeads({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name, i) => (
          <th key={i} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
