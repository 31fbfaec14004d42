// Tables of the lowcode module (migration in ../migrations).
export type LowcodeTables = {};
