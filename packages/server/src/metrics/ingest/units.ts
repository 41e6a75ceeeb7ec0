// Unit names are normalised the same way for OTLP metrics and for metrics_from_spans (config).
export { normalizeUnit } from '../../config/units';
