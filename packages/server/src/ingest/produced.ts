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
}
