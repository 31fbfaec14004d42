// Every server test file also checks the contract: a refusal it met whose code its call does not declare fails the file.
import { afterAll, beforeAll, expect } from 'vitest';
import { contractViolations } from '../../server/resources/register.js';

let mark = 0;
beforeAll(() => {
  mark = contractViolations.length;
});
afterAll(() => {
  const met = contractViolations.slice(mark);
  expect(met, 'refusals whose codes their calls do not declare (src/contract)').toEqual([]);
});
