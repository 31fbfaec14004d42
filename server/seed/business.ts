import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

export async function seedBusiness(_trx: Transaction<DB>): Promise<void> {}
