import type { SpanRow } from './spanRow';

/** What the prepare step knows of a request's project. */
export interface ProjectOptions {
  projectId: number;
  groupByEnv: boolean;
  groupFuncsByService: boolean;
}

/** What a producer (OTLP traces / logs, Zipkin, Vector) makes of one request body. */
export interface Produced {
  rows: SpanRow[];
  /** Records dropped as invalid (not stored), for OTLP partial_success. */
  rejected: number;
  rejectedMessage: string;
  /**
   * Every string in the rows' attribute maps (keys and values, nested, the events' and links'
   * too) is well-formed UTF-16 by construction, so `storable` need not walk them: true for OTLP
   * protobuf, whose strings come from UTF-8 decoding (invalid bytes become U+FFFD, never a lone
   * surrogate) and normalisation, which cuts strings on code-point boundaries only. Absent: check.
   */
  attrsWellFormed?: boolean;
}
