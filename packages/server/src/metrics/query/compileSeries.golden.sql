## counter, no func
-- query: $req
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}

## counter sum
-- query: sum($req)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}

## counter per_min
-- query: per_min($req)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}

## counter per_sec grouped
-- query: per_sec($req) | group by host.name
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":1,"p3":"app.req","p4":"1767261600","p5":"1767265200","p6":1,"p7":"app.req","p8":"1767261600","p9":"1767265200"}

## counter grouped by two keys
-- query: $req | group by service.name, host.name
SELECT g0, g1, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, g1, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0, string_values[indexOf(string_keys, {p2:String})] AS g1 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p3:UInt32} AND metric = {p4:String} AND time >= {p5:DateTime} AND time < {p6:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY g0, g1, t ORDER BY t) GROUP BY g0, g1 LIMIT 10000
-- params: {"p0":1,"p1":"service.name","p2":"host.name","p3":1,"p4":"app.req","p5":"1767261600","p6":"1767265200","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter group by all
-- query: $req | group by all
SELECT any(k1) AS attr_keys, any(v1) AS attr_values, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT attrs_hash, any(sk) AS k1, any(sv) AS v1, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_keys AS sk, string_values AS sv FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p5:UInt32} AND metric = {p6:String} AND time >= {p7:DateTime} AND time < {p8:DateTime} GROUP BY attrs_hash, t ORDER BY t) GROUP BY attrs_hash LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":1,"p6":"app.req","p7":"1767261600","p8":"1767265200"}

## counter brace filter
-- query: $req{status=500}
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE string_values[indexOf(string_keys, {p5:String})] = {p6:String}) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"status","p6":"500","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter brace filters in/!~
-- query: $req{code in (500, 503), path!~"^/health"}
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE has({p5:Array(String)}, string_values[indexOf(string_keys, {p6:String})]) AND NOT match(string_values[indexOf(string_keys, {p7:String})], {p8:String})) AS s USING attrs_hash WHERE project_id = {p9:UInt32} AND metric = {p10:String} AND time >= {p11:DateTime} AND time < {p12:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":["500","503"],"p6":"code","p7":"path","p8":"^/health","p9":1,"p10":"app.req","p11":"1767261600","p12":"1767265200"}

## counter where =
-- query: $req | where host.name = "web-1"
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE string_values[indexOf(string_keys, {p5:String})] = {p6:String}) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"host.name","p6":"web-1","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter where != and like
-- query: $req | where host.name != a and path like "/api/%"
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE (string_values[indexOf(string_keys, {p5:String})] != {p6:String} AND string_values[indexOf(string_keys, {p7:String})] LIKE {p8:String})) AS s USING attrs_hash WHERE project_id = {p9:UInt32} AND metric = {p10:String} AND time >= {p11:DateTime} AND time < {p12:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"host.name","p6":"a","p7":"path","p8":"/api/%","p9":1,"p10":"app.req","p11":"1767261600","p12":"1767265200"}

## counter where or binds looser than and
-- query: $req | where a = 1 and b = 2 or c = 3
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE ((string_values[indexOf(string_keys, {p5:String})] = {p6:String} AND string_values[indexOf(string_keys, {p7:String})] = {p8:String}) OR string_values[indexOf(string_keys, {p9:String})] = {p10:String})) AS s USING attrs_hash WHERE project_id = {p11:UInt32} AND metric = {p12:String} AND time >= {p13:DateTime} AND time < {p14:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"a","p6":"1","p7":"b","p8":"2","p9":"c","p10":"3","p11":1,"p12":"app.req","p13":"1767261600","p14":"1767265200"}

## counter where in / not in
-- query: $req | where code in (200, 204) | where env not in (dev)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE has({p5:Array(String)}, string_values[indexOf(string_keys, {p6:String})]) AND NOT has({p7:Array(String)}, string_values[indexOf(string_keys, {p8:String})])) AS s USING attrs_hash WHERE project_id = {p9:UInt32} AND metric = {p10:String} AND time >= {p11:DateTime} AND time < {p12:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":["200","204"],"p6":"code","p7":["dev"],"p8":"env","p9":1,"p10":"app.req","p11":"1767261600","p12":"1767265200"}

## counter where regexp
-- query: $req | where path ~ "^/v[12]/"
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE match(string_values[indexOf(string_keys, {p5:String})], {p6:String})) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"path","p6":"^/v[12]/","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter where exists not first
-- query: $req | where a = 1 and b exists
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE (string_values[indexOf(string_keys, {p5:String})] = {p6:String} AND has(string_keys, {p7:String}))) AS s USING attrs_hash WHERE project_id = {p8:UInt32} AND metric = {p9:String} AND time >= {p10:DateTime} AND time < {p11:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"a","p6":"1","p7":"b","p8":1,"p9":"app.req","p10":"1767261600","p11":"1767265200"}

## counter where not exists
-- query: $req | where b not exists
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE NOT has(string_keys, {p5:String})) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"b","p6":1,"p7":"app.req","p8":"1767261600","p9":"1767265200"}

## counter where numeric <=
-- query: $req | where code <= 299
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE toFloat64OrNull(string_values[indexOf(string_keys, {p5:String})]) <= {p6:Float64}) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"code","p6":299,"p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter where numeric >
-- query: $req | where code > 499
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE toFloat64OrNull(string_values[indexOf(string_keys, {p5:String})]) > {p6:Float64}) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"code","p6":499,"p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter implicit where
-- query: $req | host.name = web-2
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash) WHERE string_values[indexOf(string_keys, {p5:String})] = {p6:String}) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200","p5":"host.name","p6":"web-2","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## counter inline grouping
-- query: per_min($req) group by route
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"route","p2":1,"p3":"app.req","p4":"1767261600","p5":"1767265200","p6":1,"p7":"app.req","p8":"1767261600","p9":"1767265200"}

## counter search (table)
-- query: $req | group by route
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash) WHERE arrayExists(x -> positionCaseInsensitiveUTF8(x, {p6:String}) != 0, string_values)) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"route","p2":1,"p3":"app.req","p4":"1767261600","p5":"1767265200","p6":"api","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## gauge, no func (avg of last values)
-- query: $mem
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, avg(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.mem","p3":"1767261600","p4":"1767265200"}

## gauge sum
-- query: sum($mem)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, sum(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.mem","p3":"1767261600","p4":"1767265200"}

## gauge min
-- query: min($mem)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, min(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, min(min) AS v FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.mem","p3":"1767261600","p4":"1767265200"}

## gauge max grouped
-- query: max($mem) | group by host.name
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, t, max(v) AS value FROM (SELECT attrs_hash, g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, max(max) AS v FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY attrs_hash, g0, t) GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":1,"p3":"app.mem","p4":"1767261600","p5":"1767265200","p6":1,"p7":"app.mem","p8":"1767261600","p9":"1767265200"}

## gauge group by all
-- query: $mem | group by all
SELECT any(k1) AS attr_keys, any(v1) AS attr_values, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT attrs_hash, any(k0) AS k1, any(v0) AS v1, t, avg(v) AS value FROM (SELECT attrs_hash, any(sk) AS k0, any(sv) AS v0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_keys AS sk, string_values AS sv FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p5:UInt32} AND metric = {p6:String} AND time >= {p7:DateTime} AND time < {p8:DateTime} GROUP BY attrs_hash, t) GROUP BY attrs_hash, t ORDER BY t) GROUP BY attrs_hash LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.mem","p3":"1767261600","p4":"1767265200","p5":1,"p6":"app.mem","p7":"1767261600","p8":"1767265200"}

## gauge last
-- query: last($mem)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, avg(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.mem","p3":"1767261600","p4":"1767265200"}

## additive, no func (sum of last values)
-- query: $conns
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, sum(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.conns","p3":"1767261600","p4":"1767265200"}

## additive avg
-- query: avg($conns)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, avg(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.conns","p3":"1767261600","p4":"1767265200"}

## histogram p50
-- query: p50($lat)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(arraySum((sumMap(histogram) AS h).2) = 0, nan, least(greatest(arrayElement(h.1, arrayFirstIndex(x -> x >= {p1:Float64} * arraySum(h.2), arrayCumSum(h.2))), minIf(min, count > 0)), maxIf(max, count > 0))) AS value FROM datapoint_minutes WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":0.5,"p2":1,"p3":"app.lat","p4":"1767261600","p5":"1767265200"}

## histogram p99 grouped
-- query: p99($lat) | group by http.route
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(arraySum((sumMap(histogram) AS h).2) = 0, nan, least(greatest(arrayElement(h.1, arrayFirstIndex(x -> x >= {p1:Float64} * arraySum(h.2), arrayCumSum(h.2))), minIf(min, count > 0)), maxIf(max, count > 0))) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p2:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p3:UInt32} AND metric = {p4:String} AND time >= {p5:DateTime} AND time < {p6:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":0.99,"p2":"http.route","p3":1,"p4":"app.lat","p5":"1767261600","p6":"1767265200","p7":1,"p8":"app.lat","p9":"1767261600","p10":"1767265200"}

## histogram avg
-- query: avg($lat)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(sum(count) = 0, nan, sum(sum) / sum(count)) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.lat","p3":"1767261600","p4":"1767265200"}

## histogram count per_min
-- query: per_min(count($lat))
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, toFloat64(sum(count)) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.lat","p3":"1767261600","p4":"1767265200"}

## histogram min and max
-- query: min($lat) | max($lat)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, minIf(min, count > 0) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.lat","p3":"1767261600","p4":"1767265200"}
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, maxIf(max, count > 0) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.lat","p3":"1767261600","p4":"1767265200"}

## summary avg
-- query: avg($rpc)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(sum(count) = 0, nan, sum(sum) / sum(count)) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.rpc","p3":"1767261600","p4":"1767265200"}

## summary count and sum
-- query: count($rpc) | sum($rpc)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, toFloat64(sum(count)) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.rpc","p3":"1767261600","p4":"1767265200"}
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.rpc","p3":"1767261600","p4":"1767265200"}

## uniq of series
-- query: uniq($req)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, toFloat64(uniqCombined64(attrs_hash)) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}

## uniq of an attribute
-- query: uniq($mem.host.name)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, toFloat64(uniqCombined64(u0)) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS u0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":1,"p3":"app.mem","p4":"1767261600","p5":"1767265200","p6":1,"p7":"app.mem","p8":"1767261600","p9":"1767265200"}

## uniq of two attributes
-- query: uniq($req, host.name, route) as n
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, toFloat64(uniqCombined64(u0, u1)) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS u0, string_values[indexOf(string_keys, {p2:String})] AS u1 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p3:UInt32} AND metric = {p4:String} AND time >= {p5:DateTime} AND time < {p6:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":"route","p3":1,"p4":"app.req","p5":"1767261600","p6":"1767265200","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200"}

## where scoped to one metric
-- query: $req | p50($lat) | where $lat.http.route = "/a"
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(arraySum((sumMap(histogram) AS h).2) = 0, nan, least(greatest(arrayElement(h.1, arrayFirstIndex(x -> x >= {p1:Float64} * arraySum(h.2), arrayCumSum(h.2))), minIf(min, count > 0)), maxIf(max, count > 0))) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash) WHERE string_values[indexOf(string_keys, {p6:String})] = {p7:String}) AS s USING attrs_hash WHERE project_id = {p8:UInt32} AND metric = {p9:String} AND time >= {p10:DateTime} AND time < {p11:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":0.5,"p2":1,"p3":"app.lat","p4":"1767261600","p5":"1767265200","p6":"http.route","p7":"/a","p8":1,"p9":"app.lat","p10":"1767261600","p11":"1767265200"}

## group by scoped to one metric
-- query: $req | p50($lat) | group by $lat.host.name
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(arraySum((sumMap(histogram) AS h).2) = 0, nan, least(greatest(arrayElement(h.1, arrayFirstIndex(x -> x >= {p1:Float64} * arraySum(h.2), arrayCumSum(h.2))), minIf(min, count > 0)), maxIf(max, count > 0))) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p2:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p3:UInt32} AND metric = {p4:String} AND time >= {p5:DateTime} AND time < {p6:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":0.5,"p2":"host.name","p3":1,"p4":"app.lat","p5":"1767261600","p6":"1767265200","p7":1,"p8":"app.lat","p9":"1767261600","p10":"1767265200"}

## arithmetic between metrics
-- query: per_min($req) / per_min(count($lat)) as ratio | group by host.name
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":1,"p3":"app.req","p4":"1767261600","p5":"1767265200","p6":1,"p7":"app.req","p8":"1767261600","p9":"1767265200"}
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, toFloat64(sum(count)) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":1,"p3":"app.lat","p4":"1767261600","p5":"1767265200","p6":1,"p7":"app.lat","p8":"1767261600","p9":"1767265200"}

## same occurrence used twice is one query
-- query: $req as a | $req * 2 as b
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":1,"p1":1,"p2":"app.req","p3":"1767261600","p4":"1767265200"}

## hourly rollup for long ranges
-- query: per_min($req)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":120,"p1":1,"p2":"app.req","p3":"1767225600","p4":"1767830400"}

## hourly rollup gauge
-- query: max($mem)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT t, max(v) AS value FROM (SELECT attrs_hash, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, max(max) AS v FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} GROUP BY attrs_hash, t) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":120,"p1":1,"p2":"app.mem","p3":"1767225600","p4":"1767830400"}

## hourly rollup before the watermark
-- query: per_min($req)
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM (SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_hours WHERE project_id = {p1:UInt32} AND metric = {p2:String} AND time >= {p3:DateTime} AND time < {p4:DateTime} AND time < {p5:DateTime} UNION ALL SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_minutes WHERE project_id = {p6:UInt32} AND metric = {p7:String} AND time >= {p8:DateTime} AND time < {p9:DateTime} AND time >= {p10:DateTime}) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":120,"p1":1,"p2":"app.req","p3":"1767225600","p4":"1767830400","p5":"1767744000","p6":1,"p7":"app.req","p8":"1767225600","p9":"1767830400","p10":"1767744000"}

## hourly rollup gauge grouped, before the watermark
-- query: $mem | group by host.name
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, t, avg(v) AS value FROM (SELECT attrs_hash, g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, argMax(gauge, time) AS v FROM (SELECT *, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} AND time < {p6:DateTime} UNION ALL SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_minutes WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} AND time >= {p11:DateTime})) GROUP BY attrs_hash, g0, t) GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":120,"p1":"host.name","p2":1,"p3":"app.mem","p4":"1767225600","p5":"1767830400","p6":"1767744000","p7":1,"p8":"app.mem","p9":"1767225600","p10":"1767830400","p11":"1767744000"}

## hourly rollup histogram filtered, before the watermark
-- query: p99($lat) | where http.route = "/a"
SELECT groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, if(arraySum((sumMap(histogram) AS h).2) = 0, nan, least(greatest(arrayElement(h.1, arrayFirstIndex(x -> x >= {p1:Float64} * arraySum(h.2), arrayCumSum(h.2))), minIf(min, count > 0)), maxIf(max, count > 0))) AS value FROM (SELECT * FROM (SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} AND string_values[indexOf(string_keys, {p6:String})] = {p7:String} AND time < {p8:DateTime} UNION ALL SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_minutes WHERE project_id = {p9:UInt32} AND metric = {p10:String} AND time >= {p11:DateTime} AND time < {p12:DateTime} AND string_values[indexOf(string_keys, {p13:String})] = {p14:String} AND time >= {p15:DateTime})) GROUP BY t ORDER BY t) LIMIT 10000
-- params: {"p0":120,"p1":0.99,"p2":1,"p3":"app.lat","p4":"1767225600","p5":"1767830400","p6":"http.route","p7":"/a","p8":"1767744000","p9":1,"p10":"app.lat","p11":"1767225600","p12":"1767830400","p13":"http.route","p14":"/a","p15":"1767744000"}

## minutes with series found before and after the watermark
-- query: $req | group by host.name
SELECT g0, groupArray(toUnixTimestamp(t)) AS times, groupArray(value) AS values FROM (SELECT g0, toStartOfInterval(time, toIntervalMinute({p0:UInt32})) AS t, sum(sum) AS value FROM datapoint_minutes GLOBAL INNER JOIN (SELECT attrs_hash, string_values[indexOf(string_keys, {p1:String})] AS g0 FROM (SELECT attrs_hash, string_keys, string_values FROM (SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_hours WHERE project_id = {p2:UInt32} AND metric = {p3:String} AND time >= {p4:DateTime} AND time < {p5:DateTime} AND time < {p6:DateTime} UNION ALL SELECT project_id, metric, time, attrs_hash, instrument, min, max, sum, count, gauge, histogram, string_keys, string_values FROM datapoint_minutes WHERE project_id = {p7:UInt32} AND metric = {p8:String} AND time >= {p9:DateTime} AND time < {p10:DateTime} AND time >= {p11:DateTime}) LIMIT 1 BY attrs_hash)) AS s USING attrs_hash WHERE project_id = {p12:UInt32} AND metric = {p13:String} AND time >= {p14:DateTime} AND time < {p15:DateTime} GROUP BY g0, t ORDER BY t) GROUP BY g0 LIMIT 10000
-- params: {"p0":1,"p1":"host.name","p2":1,"p3":"app.req","p4":"1767261600","p5":"1767265200","p6":"1767263820","p7":1,"p8":"app.req","p9":"1767261600","p10":"1767265200","p11":"1767263820","p12":1,"p13":"app.req","p14":"1767261600","p15":"1767265200"}
