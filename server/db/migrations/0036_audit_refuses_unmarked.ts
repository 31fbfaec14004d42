import type { Kysely } from 'kysely';
import { AUDIT_FUNCTION } from '../audit.js';

// A call's writes are now marked with its writer statement by statement, not found from the request
// running: the function is replaced so that a write of an audited table made through the route
// modules' handle, without its call's writer, is refused rather than left unrecorded.
export async function up(db: Kysely<unknown>): Promise<void> {
  await AUDIT_FUNCTION.execute(db);
}

// The refusal only guards the server's own writes; going back leaves it in place.
export async function down(): Promise<void> {}
