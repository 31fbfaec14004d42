#!/bin/sh
# Runs once, when the PostgreSQL container creates its cluster: the server's own account, which owns its
# database and is no superuser, and the role that SQL data views run under.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -v pw="$WASTEGEN_PASSWORD" <<'SQL'
CREATE ROLE wastegen LOGIN PASSWORD :'pw' NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE DATABASE wastegen OWNER wastegen;
CREATE ROLE wastegen_data_view NOLOGIN;
GRANT wastegen_data_view TO wastegen;
SQL
