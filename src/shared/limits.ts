/** What the database's columns hold, for the checks on both sides of the wire. */

/** The largest PostgreSQL integer (int4): every id column and every count a client sends fits it. */
export const INT4_MAX = 2_147_483_647;

/** Record columns of numbers are numeric(20,6): 14 digits before the point, so values below 10^14. */
export const NUMERIC_LIMIT = 1e14;
