import { Breadcrumbs, Link, Stack } from '@mui/material';
import type { Span } from '@lantern/shared';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '../../lib/routes/paths';
import { truncate } from '../../lib/text/truncate';
import { groupSpansQuery } from './query/defaultQueries';

/**
 * The light-blue bar over the trace page and the span card: system > the span's group (its name as
 * the group list shows it, linking to the group's spans) > what follows (trace id, 'Span'), with
 * the page's date range on the right. A log's or a db span's own text is not its group's name (the
 * group is named by a template: `payment <num> declined`); a span from the trace answer carries
 * no group name and shows its own.
 */
export function SpanBreadcrumbs({
  span,
  nameMax,
  testId,
  children,
  right,
}: {
  span: Span;
  nameMax: number;
  testId: string;
  children: ReactNode;
  right: ReactNode;
}) {
  const groupName = span.groupName ?? span.displayName;
  return (
    <Stack
      direction="row"
      sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, py: 1, borderRadius: 1, flexWrap: 'wrap', gap: 1 }}
    >
      <Breadcrumbs separator=">" sx={{ flexGrow: 1 }} data-testid={testId}>
        <Link component={RouterLink} to={paths.spanGroups(span.projectId, { system: span.system })} underline="hover">
          {span.system}
        </Link>
        <Link
          component={RouterLink}
          to={paths.spanItems(span.projectId, {
            system: span.system,
            query: groupSpansQuery(span.groupId, span.system),
          })}
          underline="hover"
          title={groupName}
        >
          {truncate(groupName, nameMax)}
        </Link>
        {children}
      </Breadcrumbs>
      {right}
    </Stack>
  );
}
