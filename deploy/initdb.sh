#!/bin/sh
# Runs once, when the PostgreSQL container creates its cluster: the server's own account, which owns its
# database and is no superuser, and the login SQL data views connect as (DATA_VIEW_DATABASE_URL), which
# may read only the tables the server grants it.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -v pw="$WASTEGEN_PASSWORD" -v dvpw="$WASTEGEN_DATA_VIEW_PASSWORD" <<'SQL'
CREATE ROLE wastegen LOGIN PASSWORD :'pw' NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE DATABASE wastegen OWNER wastegen;
CREATE ROLE wastegen_data_view LOGIN PASSWORD :'dvpw' NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE wastegen_data_view SET default_transaction_read_only = on;
ALTER ROLE wastegen_data_view SET statement_timeout = '30s';
ALTER ROLE wastegen_data_view SET work_mem = '16MB';
ALTER ROLE wastegen_data_view SET temp_file_limit = '256MB';
SQL
