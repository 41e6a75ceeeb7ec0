import { toText } from '@lantern/shared';
import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';

const GROUP_ID = '.group_id';

/** What a table shows for a row's attribute: a span group's name for its `.group_id`, else the value. */
export function groupText(row: Record<string, unknown>, key: string): string {
  const names = row._names as Record<string, string> | undefined;
  return names?.[key] ?? toText(row[key]);
}

/**
 * A row's attribute value in a table cell; a span group (`.group_id`) reads as its name and links
 * to its spans, the id kept as the link's target and title.
 */
export function GroupValue({
  projectId,
  row,
  name,
}: {
  projectId: number;
  row: Record<string, unknown>;
  name: string;
}) {
  const text = groupText(row, name);
  if (name !== GROUP_ID || !row[name]) return <>{text}</>;
  const id = toText(row[name]);
  const system = toText(row['.system'] ?? '');
  return (
    <Link
      component={RouterLink}
      to={paths.spanItems(projectId, { ...(system ? { system } : {}), query: `where ${GROUP_ID} = ${id}` })}
      title={`${GROUP_ID} = ${id}`}
      onClick={(e) => e.stopPropagation()}
      data-testid="group-link"
    >
      {text}
    </Link>
  );
}

/** A value column's header: its name, and under it how the range became one number. */
export function ColumnTitle({ column }: { column: { name: string; over?: string } }) {
  if (!column.over) return <>{column.name}</>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'inherit' }}>
      {column.name}
      <Typography component="span" variant="caption" color="text.secondary" sx={{ lineHeight: 1.2 }}>
        {column.over}
      </Typography>
    </Box>
  );
}
