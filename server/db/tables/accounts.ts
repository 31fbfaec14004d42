// Tables of the accounts module (migration in ../migrations).
export type AccountTables = {};
