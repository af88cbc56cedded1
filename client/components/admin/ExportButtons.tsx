/** Download-as-ZIP buttons (placeholder until the export work lands). */
export function ExportButtons(_props: { selectedIds?: string[]; compact?: boolean }) {
  return null;
}
