import { PctileChart } from '../../components/charts/PctileChart';
import { usePercentiles, type RangeQuery } from './tracingApi';

/** Percentiles and rates of a system/group/query over a range (spec tracing §2). */
export function LoadPctileChart({
  projectId,
  params,
}: {
  projectId: number | undefined;
  params: RangeQuery | undefined;
}) {
  const { data, isPending } = usePercentiles(projectId, params);
  const d = data?.time ? { ...data, time: data.time } : undefined;
  return <PctileChart data={d} loading={isPending} />;
}
