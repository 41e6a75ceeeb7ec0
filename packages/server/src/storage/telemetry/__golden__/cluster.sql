CREATE TABLE IF NOT EXISTS lantern_migrations_local ON CLUSTER lantern (
  version UInt32, name String, applied_at DateTime DEFAULT now()
) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/lantern_migrations_local', '{replica}') ORDER BY version;

CREATE TABLE IF NOT EXISTS lantern_migrations ON CLUSTER lantern AS lantern_migrations_local ENGINE = Distributed(lantern, currentDatabase(), lantern_migrations_local, rand());

CREATE TABLE IF NOT EXISTS spans_index_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, LZ4),
        system LowCardinality(String) CODEC(LZ4),
        group_id UInt64 CODEC(Delta, LZ4),
        time DateTime64(6, 'UTC') CODEC(Delta, LZ4),
        trace_id UUID CODEC(LZ4),
        id UInt64 CODEC(LZ4),
        parent_id UInt64 CODEC(LZ4),
        type LowCardinality(String) CODEC(LZ4),
        kind LowCardinality(String) CODEC(LZ4),
        name String CODEC(LZ4),
        event_name String CODEC(LZ4),
        display_name String CODEC(LZ4),
        duration Int64 CODEC(T64, LZ4),
        count Float32 CODEC(LZ4),
        status_code LowCardinality(String) CODEC(LZ4),
        status_message String CODEC(LZ4),
        standalone Bool CODEC(LZ4),
        link_count UInt8 CODEC(LZ4),
        event_count UInt8 CODEC(LZ4),
        event_error_count UInt8 CODEC(LZ4),
        event_log_count UInt8 CODEC(LZ4),
        all_keys Array(String) CODEC(LZ4),
        attr_keys Array(String) CODEC(LZ4),
        attr_values Array(String) CODEC(LZ4),
        deployment_environment LowCardinality(String) CODEC(LZ4),
        service_name LowCardinality(String) CODEC(LZ4),
        host_name String CODEC(LZ4),
        db_system LowCardinality(String) CODEC(LZ4),
        db_statement String CODEC(LZ4),
        db_operation String CODEC(LZ4),
        db_sql_table String CODEC(LZ4),
        log_severity LowCardinality(String) CODEC(LZ4),
        log_message String CODEC(LZ4),
        exception_type String CODEC(LZ4),
        exception_message String CODEC(LZ4)
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/spans_index_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, system, group_id, time)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS spans_index ON CLUSTER lantern AS spans_index_local ENGINE = Distributed(lantern, currentDatabase(), spans_index_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS spans_data_local ON CLUSTER lantern (
        project_id UInt32 CODEC(Delta, ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(T64, ZSTD(1)),
        parent_id UInt64 CODEC(ZSTD(1)),
        time DateTime64(9, 'UTC') CODEC(Delta, ZSTD(1)),
        is_event Bool CODEC(ZSTD(1)),
        data String CODEC(ZSTD(1))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/spans_data_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, trace_id, id)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1, index_granularity = 2048;

CREATE TABLE IF NOT EXISTS spans_data ON CLUSTER lantern AS spans_data_local ENGINE = Distributed(lantern, currentDatabase(), spans_data_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS datapoint_minutes_local ON CLUSTER lantern (
  project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
  metric LowCardinality(String) CODEC(ZSTD(1)),
  time DateTime CODEC(DoubleDelta, ZSTD(1)),
  attrs_hash UInt64 CODEC(Delta, ZSTD(1)),
  instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(ZSTD(1)),
  min SimpleAggregateFunction(min, Float64) CODEC(ZSTD(1)),
  max SimpleAggregateFunction(max, Float64) CODEC(ZSTD(1)),
  sum SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
  count SimpleAggregateFunction(sum, UInt64) CODEC(T64, ZSTD(1)),
  gauge SimpleAggregateFunction(anyLast, Float64) CODEC(ZSTD(1)),
  histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(ZSTD(1)),
  string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1)),
  string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1))
    ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/datapoint_minutes_local', '{replica}')
    PARTITION BY toDate(time)
    ORDER BY (project_id, metric, time, attrs_hash)
    TTL toDate(time) + INTERVAL 90 DAY DELETE
    SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS datapoint_minutes ON CLUSTER lantern AS datapoint_minutes_local ENGINE = Distributed(lantern, currentDatabase(), datapoint_minutes_local, rand());

CREATE TABLE IF NOT EXISTS datapoint_hours_local ON CLUSTER lantern (
  project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
  metric LowCardinality(String) CODEC(ZSTD(1)),
  time DateTime CODEC(DoubleDelta, ZSTD(1)),
  attrs_hash UInt64 CODEC(Delta, ZSTD(1)),
  instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(ZSTD(1)),
  min SimpleAggregateFunction(min, Float64) CODEC(ZSTD(1)),
  max SimpleAggregateFunction(max, Float64) CODEC(ZSTD(1)),
  sum SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
  count SimpleAggregateFunction(sum, UInt64) CODEC(T64, ZSTD(1)),
  gauge SimpleAggregateFunction(anyLast, Float64) CODEC(ZSTD(1)),
  histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(ZSTD(1)),
  string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1)),
  string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1))
    ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/datapoint_hours_local', '{replica}')
    PARTITION BY toDate(time)
    ORDER BY (project_id, metric, time, attrs_hash)
    TTL toDate(time) + INTERVAL 90 DAY DELETE
    SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS datapoint_hours ON CLUSTER lantern AS datapoint_hours_local ENGINE = Distributed(lantern, currentDatabase(), datapoint_hours_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS datapoint_hours_mv ON CLUSTER lantern TO datapoint_hours_local AS
    SELECT project_id, metric, toStartOfHour(time) AS time, attrs_hash,
      anyLast(instrument) AS instrument, min(min) AS min, max(max) AS max, sum(sum) AS sum,
      sum(count) AS count, anyLast(gauge) AS gauge, sumMap(histogram) AS histogram,
      anyLast(string_keys) AS string_keys, anyLast(string_values) AS string_values
    FROM datapoint_minutes_local
    GROUP BY project_id, metric, toStartOfHour(time), attrs_hash
    SETTINGS prefer_column_name_to_alias = 1;

CREATE TABLE IF NOT EXISTS metrics_catalog_local ON CLUSTER lantern (
      project_id UInt32,
      name String,
      description SimpleAggregateFunction(anyLast, String),
      unit SimpleAggregateFunction(anyLast, String),
      instrument SimpleAggregateFunction(anyLast, String),
      attr_keys SimpleAggregateFunction(anyLast, Array(String)),
      created_at SimpleAggregateFunction(min, DateTime),
      updated_at SimpleAggregateFunction(max, DateTime)
    ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/metrics_catalog_local', '{replica}')
    ORDER BY (project_id, name);

CREATE TABLE IF NOT EXISTS metrics_catalog ON CLUSTER lantern AS metrics_catalog_local ENGINE = Distributed(lantern, currentDatabase(), metrics_catalog_local, rand());

CREATE TABLE IF NOT EXISTS span_groups_1m_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(Delta, ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        error_count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        min_duration SimpleAggregateFunction(min, Int64) CODEC(ZSTD(1)),
        max_duration SimpleAggregateFunction(max, Int64) CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(1)),
        display_name SimpleAggregateFunction(any, String) CODEC(ZSTD(1))
      ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/span_groups_1m_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system, group_id)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS span_groups_1m ON CLUSTER lantern AS span_groups_1m_local ENGINE = Distributed(lantern, currentDatabase(), span_groups_1m_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS span_groups_1m_mv ON CLUSTER lantern TO span_groups_1m_local AS SELECT project_id, type, system, group_id, t AS time,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfMinute(time) AS t, count AS c, status_code AS sc, duration AS d, display_name AS dn FROM spans_index_local)
  GROUP BY project_id, type, system, group_id, t;

INSERT INTO span_groups_1m SELECT project_id, type, system, group_id, t AS time,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfMinute(time) AS t, count AS c, status_code AS sc, duration AS d, display_name AS dn FROM spans_index)
  GROUP BY project_id, type, system, group_id, t;

CREATE TABLE IF NOT EXISTS span_groups_1h_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(Delta, ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        error_count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        min_duration SimpleAggregateFunction(min, Int64) CODEC(ZSTD(1)),
        max_duration SimpleAggregateFunction(max, Int64) CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(1)),
        display_name SimpleAggregateFunction(any, String) CODEC(ZSTD(1))
      ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/span_groups_1h_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system, group_id)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS span_groups_1h ON CLUSTER lantern AS span_groups_1h_local ENGINE = Distributed(lantern, currentDatabase(), span_groups_1h_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS span_groups_1h_mv ON CLUSTER lantern TO span_groups_1h_local AS SELECT project_id, type, system, group_id, t AS time,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfHour(time) AS t, count AS c, status_code AS sc, duration AS d, display_name AS dn FROM spans_index_local)
  GROUP BY project_id, type, system, group_id, t;

INSERT INTO span_groups_1h SELECT project_id, type, system, group_id, t AS time,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfHour(time) AS t, count AS c, status_code AS sc, duration AS d, display_name AS dn FROM spans_index)
  GROUP BY project_id, type, system, group_id, t;

ALTER TABLE spans_index_local ON CLUSTER lantern ADD INDEX IF NOT EXISTS idx_type type TYPE set(100) GRANULARITY 1;

ALTER TABLE spans_index_local ON CLUSTER lantern ADD INDEX IF NOT EXISTS idx_time time TYPE minmax GRANULARITY 1;

ALTER TABLE spans_index_local ON CLUSTER lantern MATERIALIZE INDEX idx_type;

ALTER TABLE spans_index_local ON CLUSTER lantern MATERIALIZE INDEX idx_time;

ALTER TABLE spans_index_local ON CLUSTER lantern DROP COLUMN IF EXISTS all_keys;

ALTER TABLE spans_index ON CLUSTER lantern DROP COLUMN IF EXISTS all_keys;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY SETTING merge_selector_base = 20;

ALTER TABLE spans_data_local ON CLUSTER lantern MODIFY SETTING merge_selector_base = 20;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN type String CODEC(LZ4);

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN type String;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN kind String CODEC(LZ4);

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN kind String;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN status_code String CODEC(LZ4);

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN status_code String;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN deployment_environment String CODEC(LZ4);

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN deployment_environment String;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN db_system String CODEC(LZ4);

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN db_system String;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN log_severity String CODEC(LZ4);

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN log_severity String;

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern ADD COLUMN IF NOT EXISTS annotations SimpleAggregateFunction(anyLast, String) CODEC(ZSTD(1));

ALTER TABLE datapoint_minutes ON CLUSTER lantern ADD COLUMN IF NOT EXISTS annotations SimpleAggregateFunction(anyLast, String);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern ADD COLUMN IF NOT EXISTS annotations SimpleAggregateFunction(anyLast, String) CODEC(ZSTD(1));

ALTER TABLE datapoint_hours ON CLUSTER lantern ADD COLUMN IF NOT EXISTS annotations SimpleAggregateFunction(anyLast, String);

DROP VIEW IF EXISTS datapoint_hours_mv ON CLUSTER lantern;

CREATE MATERIALIZED VIEW IF NOT EXISTS datapoint_hours_mv ON CLUSTER lantern TO datapoint_hours_local AS
    SELECT project_id, metric, toStartOfHour(time) AS time, attrs_hash,
      anyLast(instrument) AS instrument, min(min) AS min, max(max) AS max, sum(sum) AS sum,
      sum(count) AS count, anyLast(gauge) AS gauge, sumMap(histogram) AS histogram,
      anyLast(string_keys) AS string_keys, anyLast(string_values) AS string_values,
      anyLast(annotations) AS annotations
    FROM datapoint_minutes_local
    GROUP BY project_id, metric, toStartOfHour(time), attrs_hash
    SETTINGS prefer_column_name_to_alias = 1;

CREATE TABLE IF NOT EXISTS datapoint_15m_local ON CLUSTER lantern (
  project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
  metric LowCardinality(String) CODEC(ZSTD(1)),
  time DateTime CODEC(DoubleDelta, ZSTD(1)),
  attrs_hash UInt64 CODEC(Delta, ZSTD(1)),
  instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(ZSTD(1)),
  min SimpleAggregateFunction(min, Float64) CODEC(ZSTD(1)),
  max SimpleAggregateFunction(max, Float64) CODEC(ZSTD(1)),
  sum SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
  count SimpleAggregateFunction(sum, UInt64) CODEC(T64, ZSTD(1)),
  gauge SimpleAggregateFunction(anyLast, Float64) CODEC(ZSTD(1)),
  histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(ZSTD(1)),
  string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1)),
  string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(ZSTD(1)),
  annotations SimpleAggregateFunction(anyLast, String) CODEC(ZSTD(1))
    ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/datapoint_15m_local', '{replica}')
    PARTITION BY toDate(time)
    ORDER BY (project_id, metric, time, attrs_hash)
    TTL toDate(time) + INTERVAL 90 DAY DELETE
    SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS datapoint_15m ON CLUSTER lantern AS datapoint_15m_local ENGINE = Distributed(lantern, currentDatabase(), datapoint_15m_local, rand());

INSERT INTO datapoint_15m SELECT project_id, metric, toStartOfFifteenMinutes(time) AS time, attrs_hash,
      anyLast(instrument) AS instrument, min(min) AS min, max(max) AS max, sum(sum) AS sum,
      sum(count) AS count, anyLast(gauge) AS gauge, sumMap(histogram) AS histogram,
      anyLast(string_keys) AS string_keys, anyLast(string_values) AS string_values,
      anyLast(annotations) AS annotations
    FROM datapoint_minutes
    GROUP BY project_id, metric, toStartOfFifteenMinutes(time), attrs_hash
    SETTINGS prefer_column_name_to_alias = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS datapoint_15m_mv ON CLUSTER lantern TO datapoint_15m_local AS
    SELECT project_id, metric, toStartOfFifteenMinutes(time) AS time, attrs_hash,
      anyLast(instrument) AS instrument, min(min) AS min, max(max) AS max, sum(sum) AS sum,
      sum(count) AS count, anyLast(gauge) AS gauge, sumMap(histogram) AS histogram,
      anyLast(string_keys) AS string_keys, anyLast(string_values) AS string_values,
      anyLast(annotations) AS annotations
    FROM datapoint_minutes_local
    GROUP BY project_id, metric, toStartOfFifteenMinutes(time), attrs_hash
    SETTINGS prefer_column_name_to_alias = 1;

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN project_id UInt32 CODEC(DoubleDelta, LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN project_id UInt32;

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN metric LowCardinality(String) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN metric LowCardinality(String);

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN time DateTime CODEC(DoubleDelta, LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN time DateTime;

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN attrs_hash UInt64 CODEC(Delta, LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN attrs_hash UInt64;

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN instrument SimpleAggregateFunction(anyLast, LowCardinality(String));

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN min SimpleAggregateFunction(min, Float64) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN min SimpleAggregateFunction(min, Float64);

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN max SimpleAggregateFunction(max, Float64) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN max SimpleAggregateFunction(max, Float64);

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN sum SimpleAggregateFunction(sum, Float64) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN sum SimpleAggregateFunction(sum, Float64);

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN count SimpleAggregateFunction(sum, UInt64) CODEC(T64, LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN count SimpleAggregateFunction(sum, UInt64);

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN gauge SimpleAggregateFunction(anyLast, Float64) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN gauge SimpleAggregateFunction(anyLast, Float64);

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64)));

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN string_keys SimpleAggregateFunction(anyLast, Array(String));

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN string_values SimpleAggregateFunction(anyLast, Array(String));

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY COLUMN annotations SimpleAggregateFunction(anyLast, String) CODEC(LZ4);

ALTER TABLE datapoint_minutes ON CLUSTER lantern MODIFY COLUMN annotations SimpleAggregateFunction(anyLast, String);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN project_id UInt32 CODEC(DoubleDelta, LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN project_id UInt32;

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN metric LowCardinality(String) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN metric LowCardinality(String);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN time DateTime CODEC(DoubleDelta, LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN time DateTime;

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN attrs_hash UInt64 CODEC(Delta, LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN attrs_hash UInt64;

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN instrument SimpleAggregateFunction(anyLast, LowCardinality(String));

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN min SimpleAggregateFunction(min, Float64) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN min SimpleAggregateFunction(min, Float64);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN max SimpleAggregateFunction(max, Float64) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN max SimpleAggregateFunction(max, Float64);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN sum SimpleAggregateFunction(sum, Float64) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN sum SimpleAggregateFunction(sum, Float64);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN count SimpleAggregateFunction(sum, UInt64) CODEC(T64, LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN count SimpleAggregateFunction(sum, UInt64);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN gauge SimpleAggregateFunction(anyLast, Float64) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN gauge SimpleAggregateFunction(anyLast, Float64);

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64)));

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN string_keys SimpleAggregateFunction(anyLast, Array(String));

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN string_values SimpleAggregateFunction(anyLast, Array(String));

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY COLUMN annotations SimpleAggregateFunction(anyLast, String) CODEC(LZ4);

ALTER TABLE datapoint_15m ON CLUSTER lantern MODIFY COLUMN annotations SimpleAggregateFunction(anyLast, String);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN project_id UInt32 CODEC(DoubleDelta, LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN project_id UInt32;

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN metric LowCardinality(String) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN metric LowCardinality(String);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN time DateTime CODEC(DoubleDelta, LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN time DateTime;

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN attrs_hash UInt64 CODEC(Delta, LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN attrs_hash UInt64;

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN instrument SimpleAggregateFunction(anyLast, LowCardinality(String)) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN instrument SimpleAggregateFunction(anyLast, LowCardinality(String));

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN min SimpleAggregateFunction(min, Float64) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN min SimpleAggregateFunction(min, Float64);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN max SimpleAggregateFunction(max, Float64) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN max SimpleAggregateFunction(max, Float64);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN sum SimpleAggregateFunction(sum, Float64) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN sum SimpleAggregateFunction(sum, Float64);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN count SimpleAggregateFunction(sum, UInt64) CODEC(T64, LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN count SimpleAggregateFunction(sum, UInt64);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN gauge SimpleAggregateFunction(anyLast, Float64) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN gauge SimpleAggregateFunction(anyLast, Float64);

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64))) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN histogram SimpleAggregateFunction(sumMap, Tuple(Array(Float64), Array(UInt64)));

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN string_keys SimpleAggregateFunction(anyLast, Array(String)) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN string_keys SimpleAggregateFunction(anyLast, Array(String));

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN string_values SimpleAggregateFunction(anyLast, Array(String)) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN string_values SimpleAggregateFunction(anyLast, Array(String));

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY COLUMN annotations SimpleAggregateFunction(anyLast, String) CODEC(LZ4);

ALTER TABLE datapoint_hours ON CLUSTER lantern MODIFY COLUMN annotations SimpleAggregateFunction(anyLast, String);

CREATE TABLE IF NOT EXISTS span_attr_groups_15m_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        attr_key LowCardinality(String) CODEC(ZSTD(1)),
        attr_value String CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(ZSTD(1)),
        count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        error_count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        min_duration SimpleAggregateFunction(min, Int64) CODEC(ZSTD(1)),
        max_duration SimpleAggregateFunction(max, Int64) CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(1)),
        display_name SimpleAggregateFunction(any, String) CODEC(ZSTD(1))
      ) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/span_attr_groups_15m_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, attr_key, attr_value, time, type, system, group_id)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS span_attr_groups_15m ON CLUSTER lantern AS span_attr_groups_15m_local ENGINE = Distributed(lantern, currentDatabase(), span_attr_groups_15m_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS span_attr_groups_15m_mv ON CLUSTER lantern TO span_attr_groups_15m_local AS SELECT project_id, k AS attr_key, v AS attr_value, t AS time, type, system, group_id,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfFifteenMinutes(time) AS t, count AS c, status_code AS sc,
      duration AS d, display_name AS dn, [service_name, host_name, deployment_environment] AS vs FROM spans_index_local)
  ARRAY JOIN ['service.name', 'host.name', 'deployment.environment'] AS k, vs AS v
  GROUP BY project_id, attr_key, attr_value, type, system, group_id, t;

INSERT INTO span_attr_groups_15m SELECT project_id, k AS attr_key, v AS attr_value, t AS time, type, system, group_id,
    sum(c) AS count, sumIf(c, sc = 'error') AS error_count, min(d) AS min_duration, max(d) AS max_duration,
    quantilesTDigestState(0.5)(toFloat64(d)) AS duration, any(dn) AS display_name
  FROM (SELECT project_id, type, system, group_id, toStartOfFifteenMinutes(time) AS t, count AS c, status_code AS sc,
      duration AS d, display_name AS dn, [service_name, host_name, deployment_environment] AS vs FROM spans_index)
  ARRAY JOIN ['service.name', 'host.name', 'deployment.environment'] AS k, vs AS v
  GROUP BY project_id, attr_key, attr_value, type, system, group_id, t;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY COLUMN trace_id UUID CODEC(ZSTD(1)), MODIFY COLUMN parent_id UInt64 CODEC(ZSTD(1)), MODIFY COLUMN group_id UInt64 CODEC(Delta, ZSTD(1)), MODIFY COLUMN time DateTime64(6, 'UTC') CODEC(Delta, ZSTD(3)), MODIFY COLUMN duration Int64 CODEC(T64, ZSTD(1)), MODIFY COLUMN count Float32 CODEC(ZSTD(1)), MODIFY COLUMN attr_values Array(String) CODEC(ZSTD(3)), MODIFY COLUMN service_name LowCardinality(String) CODEC(ZSTD(1)), MODIFY COLUMN type String CODEC(ZSTD(3)), MODIFY COLUMN kind String CODEC(ZSTD(3)), MODIFY COLUMN name String CODEC(ZSTD(3)), MODIFY COLUMN event_name String CODEC(ZSTD(3)), MODIFY COLUMN display_name String CODEC(ZSTD(3)), MODIFY COLUMN status_code String CODEC(ZSTD(3)), MODIFY COLUMN status_message String CODEC(ZSTD(3)), MODIFY COLUMN deployment_environment String CODEC(ZSTD(3)), MODIFY COLUMN host_name String CODEC(ZSTD(3)), MODIFY COLUMN db_system String CODEC(ZSTD(3)), MODIFY COLUMN db_statement String CODEC(ZSTD(3)), MODIFY COLUMN db_operation String CODEC(ZSTD(3)), MODIFY COLUMN db_sql_table String CODEC(ZSTD(3)), MODIFY COLUMN log_severity String CODEC(ZSTD(3)), MODIFY COLUMN log_message String CODEC(ZSTD(3)), MODIFY COLUMN exception_type String CODEC(ZSTD(3)), MODIFY COLUMN exception_message String CODEC(ZSTD(3));

ALTER TABLE spans_index ON CLUSTER lantern MODIFY COLUMN trace_id UUID, MODIFY COLUMN parent_id UInt64, MODIFY COLUMN group_id UInt64, MODIFY COLUMN time DateTime64(6, 'UTC'), MODIFY COLUMN duration Int64, MODIFY COLUMN count Float32, MODIFY COLUMN attr_values Array(String), MODIFY COLUMN service_name LowCardinality(String), MODIFY COLUMN type String, MODIFY COLUMN kind String, MODIFY COLUMN name String, MODIFY COLUMN event_name String, MODIFY COLUMN display_name String, MODIFY COLUMN status_code String, MODIFY COLUMN status_message String, MODIFY COLUMN deployment_environment String, MODIFY COLUMN host_name String, MODIFY COLUMN db_system String, MODIFY COLUMN db_statement String, MODIFY COLUMN db_operation String, MODIFY COLUMN db_sql_table String, MODIFY COLUMN log_severity String, MODIFY COLUMN log_message String, MODIFY COLUMN exception_type String, MODIFY COLUMN exception_message String;

ALTER TABLE spans_data_local ON CLUSTER lantern MODIFY COLUMN parent_id UInt64 CODEC(ZSTD(3)), MODIFY COLUMN time DateTime64(9, 'UTC') CODEC(Delta, ZSTD(3));

ALTER TABLE spans_data ON CLUSTER lantern MODIFY COLUMN parent_id UInt64, MODIFY COLUMN time DateTime64(9, 'UTC');

ALTER TABLE span_groups_1m_local ON CLUSTER lantern MODIFY COLUMN duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(3));

ALTER TABLE span_groups_1m ON CLUSTER lantern MODIFY COLUMN duration AggregateFunction(quantilesTDigest(0.5), Float64);

ALTER TABLE span_groups_1h_local ON CLUSTER lantern MODIFY COLUMN duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(3));

ALTER TABLE span_groups_1h ON CLUSTER lantern MODIFY COLUMN duration AggregateFunction(quantilesTDigest(0.5), Float64);

ALTER TABLE span_attr_groups_15m_local ON CLUSTER lantern MODIFY COLUMN duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(3));

ALTER TABLE span_attr_groups_15m ON CLUSTER lantern MODIFY COLUMN duration AggregateFunction(quantilesTDigest(0.5), Float64);

CREATE TABLE IF NOT EXISTS error_arrivals_local ON CLUSTER lantern (
        project_id UInt32 CODEC(ZSTD(1)),
        arrived DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1)),
        display_name String CODEC(ZSTD(3)),
        attr_keys Array(String) CODEC(ZSTD(3)),
        attr_values Array(String) CODEC(ZSTD(3)),
        deployment_environment String CODEC(ZSTD(3)),
        service_name String CODEC(ZSTD(3)),
        host_name String CODEC(ZSTD(3)),
        db_system String CODEC(ZSTD(3)),
        db_statement String CODEC(ZSTD(3)),
        db_operation String CODEC(ZSTD(3)),
        db_sql_table String CODEC(ZSTD(3)),
        log_severity String CODEC(ZSTD(3)),
        log_message String CODEC(ZSTD(3)),
        exception_type String CODEC(ZSTD(3)),
        exception_message String CODEC(ZSTD(3))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/error_arrivals_local', '{replica}')
      PARTITION BY toDate(arrived)
      ORDER BY (project_id, arrived)
      TTL toDate(arrived) + INTERVAL 2 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS error_arrivals ON CLUSTER lantern AS error_arrivals_local ENGINE = Distributed(lantern, currentDatabase(), error_arrivals_local, rand());

CREATE MATERIALIZED VIEW IF NOT EXISTS error_arrivals_mv ON CLUSTER lantern TO error_arrivals_local AS SELECT now64(6, 'UTC') AS arrived, project_id, time, system, group_id, type, trace_id, id, display_name, attr_keys, attr_values, deployment_environment, service_name, host_name, db_system, db_statement, db_operation, db_sql_table, log_severity, log_message, exception_type, exception_message FROM spans_index_local WHERE ((event_name = '' AND status_code = 'error') OR (standalone AND system IN ('log:error', 'log:fatal', 'log:panic') AND NOT (event_name = 'log' AND exception_type != '')));

INSERT INTO error_arrivals (arrived, project_id, time, system, group_id, type, trace_id, id, display_name, attr_keys, attr_values, deployment_environment, service_name, host_name, db_system, db_statement, db_operation, db_sql_table, log_severity, log_message, exception_type, exception_message) SELECT time, project_id, time, system, group_id, type, trace_id, id, display_name, attr_keys, attr_values, deployment_environment, service_name, host_name, db_system, db_statement, db_operation, db_sql_table, log_severity, log_message, exception_type, exception_message FROM spans_index WHERE ((event_name = '' AND status_code = 'error') OR (standalone AND system IN ('log:error', 'log:fatal', 'log:panic') AND NOT (event_name = 'log' AND exception_type != ''))) AND time >= now64(6, 'UTC') - INTERVAL 1 HOUR;

ALTER TABLE spans_index_local ON CLUSTER lantern ADD INDEX IF NOT EXISTS idx_attr_values attr_values TYPE bloom_filter(0.01) GRANULARITY 1;

ALTER TABLE spans_index_local ON CLUSTER lantern MATERIALIZE INDEX idx_attr_values;

CREATE TABLE IF NOT EXISTS service_graph_minutes_local ON CLUSTER lantern (
        project_id UInt32 CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        run UInt64 CODEC(ZSTD(1)),
        row_type LowCardinality(String) CODEC(ZSTD(1)),
        client LowCardinality(String) CODEC(ZSTD(1)),
        server LowCardinality(String) CODEC(ZSTD(1)),
        server_type LowCardinality(String) CODEC(ZSTD(1)),
        connection_type LowCardinality(String) CODEC(ZSTD(1)),
        calls UInt64 CODEC(ZSTD(1)),
        errors UInt64 CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5, 0.99), Float64) CODEC(ZSTD(3))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/service_graph_minutes_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, row_type, client, server)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS service_graph_minutes ON CLUSTER lantern AS service_graph_minutes_local ENGINE = Distributed(lantern, currentDatabase(), service_graph_minutes_local, rand());

CREATE TABLE IF NOT EXISTS service_graph_runs_local ON CLUSTER lantern (
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        run UInt64 CODEC(ZSTD(1)),
        final UInt8 CODEC(ZSTD(1))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/service_graph_runs_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (time, run)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS service_graph_runs ON CLUSTER lantern AS service_graph_runs_local ENGINE = Distributed(lantern, currentDatabase(), service_graph_runs_local, rand());

ALTER TABLE service_graph_runs_local ON CLUSTER lantern ADD COLUMN IF NOT EXISTS spans UInt64 CODEC(ZSTD(1));

ALTER TABLE service_graph_runs ON CLUSTER lantern ADD COLUMN IF NOT EXISTS spans UInt64;

CREATE TABLE IF NOT EXISTS service_graph_hours_local ON CLUSTER lantern (
        project_id UInt32 CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        run UInt64 CODEC(ZSTD(1)),
        row_type LowCardinality(String) CODEC(ZSTD(1)),
        client LowCardinality(String) CODEC(ZSTD(1)),
        server LowCardinality(String) CODEC(ZSTD(1)),
        server_type LowCardinality(String) CODEC(ZSTD(1)),
        connection_type LowCardinality(String) CODEC(ZSTD(1)),
        calls UInt64 CODEC(ZSTD(1)),
        errors UInt64 CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5, 0.99), Float64) CODEC(ZSTD(3))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/service_graph_hours_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, row_type, client, server)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS service_graph_hours ON CLUSTER lantern AS service_graph_hours_local ENGINE = Distributed(lantern, currentDatabase(), service_graph_hours_local, rand());

CREATE TABLE IF NOT EXISTS service_graph_hour_runs_local ON CLUSTER lantern (
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        run UInt64 CODEC(ZSTD(1))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/service_graph_hour_runs_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (time, run)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS service_graph_hour_runs ON CLUSTER lantern AS service_graph_hour_runs_local ENGINE = Distributed(lantern, currentDatabase(), service_graph_hour_runs_local, rand());

CREATE TABLE IF NOT EXISTS span_arrivals_local ON CLUSTER lantern (
        project_id UInt32 CODEC(ZSTD(1)),
        arrived DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(ZSTD(1)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/span_arrivals_local', '{replica}')
      PARTITION BY toDate(arrived)
      ORDER BY (project_id, arrived, trace_id, id)
      TTL toDate(arrived) + INTERVAL 1 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS span_arrivals ON CLUSTER lantern AS span_arrivals_local ENGINE = Distributed(lantern, currentDatabase(), span_arrivals_local, cityHash64(trace_id));

CREATE MATERIALIZED VIEW IF NOT EXISTS span_arrivals_mv ON CLUSTER lantern TO span_arrivals_local AS SELECT now64(6, 'UTC') AS arrived, project_id, time, trace_id, id FROM spans_index_local;

CREATE TABLE IF NOT EXISTS spans_sample_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        group_id UInt64 CODEC(ZSTD(1)),
        time DateTime64(6, 'UTC') CODEC(Delta, ZSTD(3)),
        trace_id UUID CODEC(ZSTD(1)),
        id UInt64 CODEC(ZSTD(1)),
        parent_id UInt64 CODEC(ZSTD(1)),
        type String CODEC(ZSTD(3)),
        kind String CODEC(ZSTD(3)),
        name String CODEC(ZSTD(3)),
        event_name String CODEC(ZSTD(3)),
        display_name String CODEC(ZSTD(3)),
        duration Int64 CODEC(T64, ZSTD(1)),
        count Float32 CODEC(ZSTD(1)),
        status_code String CODEC(ZSTD(3)),
        status_message String CODEC(ZSTD(3)),
        standalone Bool CODEC(ZSTD(1)),
        link_count UInt8 CODEC(ZSTD(1)),
        event_count UInt8 CODEC(ZSTD(1)),
        event_error_count UInt8 CODEC(ZSTD(1)),
        event_log_count UInt8 CODEC(ZSTD(1)),
        attr_keys Array(String) CODEC(LZ4),
        attr_values Array(String) CODEC(ZSTD(3)),
        deployment_environment String CODEC(ZSTD(3)),
        service_name LowCardinality(String) CODEC(ZSTD(1)),
        host_name String CODEC(ZSTD(3)),
        db_system String CODEC(ZSTD(3)),
        db_statement String CODEC(ZSTD(3)),
        db_operation String CODEC(ZSTD(3)),
        db_sql_table String CODEC(ZSTD(3)),
        log_severity String CODEC(ZSTD(3)),
        log_message String CODEC(ZSTD(3)),
        exception_type String CODEC(ZSTD(3)),
        exception_message String CODEC(ZSTD(3))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/spans_sample_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS spans_sample ON CLUSTER lantern AS spans_sample_local ENGINE = Distributed(lantern, currentDatabase(), spans_sample_local, cityHash64(trace_id));

CREATE MATERIALIZED VIEW IF NOT EXISTS spans_sample_mv ON CLUSTER lantern TO spans_sample_local AS SELECT * FROM spans_index_local WHERE cityHash64(trace_id) % 1000000 < 20000;

INSERT INTO spans_sample SELECT * FROM spans_index WHERE cityHash64(trace_id) % 1000000 < 20000;

CREATE TABLE IF NOT EXISTS span_systems_5m_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        error_count SimpleAggregateFunction(sum, Float64) CODEC(ZSTD(1)),
        min_duration SimpleAggregateFunction(min, Int64) CODEC(ZSTD(1)),
        max_duration SimpleAggregateFunction(max, Int64) CODEC(ZSTD(1)),
        duration AggregateFunction(quantilesTDigest(0.5), Float64) CODEC(ZSTD(3)),
        run UInt64 CODEC(ZSTD(1))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/span_systems_5m_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS span_systems_5m ON CLUSTER lantern AS span_systems_5m_local ENGINE = Distributed(lantern, currentDatabase(), span_systems_5m_local, rand());

INSERT INTO span_systems_5m SELECT project_id, type, system, t AS time,
    sum(c) AS count, sum(e) AS error_count, min(mi) AS min_duration, max(ma) AS max_duration,
    quantilesTDigestMergeState(0.5)(d) AS duration, toUInt64(0) AS run
  FROM (SELECT project_id, type, system, toStartOfFiveMinutes(time) AS t, count AS c, error_count AS e,
      min_duration AS mi, max_duration AS ma, duration AS d FROM span_groups_1m WHERE time < toStartOfFiveMinutes(now() - INTERVAL 15 MINUTE))
  GROUP BY project_id, type, system, t;

CREATE TABLE IF NOT EXISTS span_durations_5m_local ON CLUSTER lantern (
        project_id UInt32 CODEC(DoubleDelta, ZSTD(1)),
        type LowCardinality(String) CODEC(ZSTD(1)),
        system LowCardinality(String) CODEC(ZSTD(1)),
        time DateTime('UTC') CODEC(Delta, ZSTD(1)),
        bin Int32 CODEC(ZSTD(1)),
        count UInt64 CODEC(ZSTD(1)),
        weight Float64 CODEC(ZSTD(1)),
        run UInt64 CODEC(ZSTD(1))
      ) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/span_durations_5m_local', '{replica}')
      PARTITION BY toDate(time)
      ORDER BY (project_id, time, type, system, bin)
      TTL toDate(time) + INTERVAL 30 DAY DELETE
      SETTINGS ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS span_durations_5m ON CLUSTER lantern AS span_durations_5m_local ENGINE = Distributed(lantern, currentDatabase(), span_durations_5m_local, rand());

ALTER TABLE spans_data_local ON CLUSTER lantern MODIFY COLUMN data String CODEC(Default);

ALTER TABLE spans_data ON CLUSTER lantern MODIFY COLUMN data String;

ALTER TABLE spans_index_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE spans_data_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE, time RECOMPRESS CODEC(ZSTD(1)), time + INTERVAL 1 HOUR RECOMPRESS CODEC(ZSTD(9));

ALTER TABLE span_groups_1m_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE span_groups_1h_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE span_attr_groups_15m_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE service_graph_minutes_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE service_graph_runs_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE service_graph_hours_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE service_graph_hour_runs_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE spans_sample_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE span_systems_5m_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE span_durations_5m_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 30 DAY DELETE;

ALTER TABLE datapoint_minutes_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 90 DAY DELETE;

ALTER TABLE datapoint_15m_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 90 DAY DELETE;

ALTER TABLE datapoint_hours_local ON CLUSTER lantern MODIFY TTL toDate(time) + INTERVAL 90 DAY DELETE;
