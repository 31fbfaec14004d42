// Tables of the business module (migration in ../migrations).
export type BusinessTables = {};
