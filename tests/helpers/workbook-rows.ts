import ExcelJS from 'exceljs';

/** The first sheet's rows of a workbook the server answered, each row's cells from the first column. */
export async function sheetOf(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ExcelJS.Buffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}
