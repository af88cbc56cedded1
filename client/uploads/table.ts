/**
 * The table whose QR sign this page was opened from (/live?table=7): every upload from the page
 * carries it (field `table`). Set by the upload page (components/guest/TableNote).
 */
let current: number | null = null;

export const uploadTable = (): number | null => current;

export function setUploadTable(table: number | null): void {
  current = table;
}

/** Where the table is kept for the tab, so a reload or a return to /live from the gallery still counts for it. */
export const TABLE_KEY = 'wedding-upload-table';

