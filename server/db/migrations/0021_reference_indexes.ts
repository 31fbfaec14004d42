// Every designed view's table gets an index on each field that picks a record of another table and on
// each column a company's or department's scope reads by (the parties a record names, its recipient
// department), built the same way as the scope indexes: the view tables are synced with their
// definitions again, which adds only the indexes that are missing.
export { down, up } from './0017_scope_indexes.js';
