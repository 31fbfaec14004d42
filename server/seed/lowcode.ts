import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

export async function seedLowcode(_trx: Transaction<DB>): Promise<void> {}
