import { Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';

function attrText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A span's attributes as a sorted key/value table (the full Attrs view with facets comes later). */
export function SpanAttrsTable({ attrs }: { attrs: Record<string, unknown> }) {
  const keys = Object.keys(attrs).sort();
  if (keys.length === 0) return <Typography color="text.secondary">This span has no attributes.</Typography>;
  return (
    <Table size="small" data-testid="span-attrs">
      <TableBody>
        {keys.map((key) => (
          <TableRow key={key}>
            <TableCell sx={{ width: '35%', fontFamily: 'ui-monospace, monospace', verticalAlign: 'top' }}>{key}</TableCell>
            <TableCell sx={{ fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all' }}>{attrText(attrs[key])}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
