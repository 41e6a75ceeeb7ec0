import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, TextField } from '@mui/material';

/**
 * The "Advanced" section of a grid panel's or gauge's form: the grid query template, used instead
 * of the dashboard query and the row's filter when the grid opens from a table row.
 */
export function GridQueryTemplateField({
  value,
  onChange,
  what,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  /** What opens from the row, for the hint: 'panel' or 'grid'. */
  what: string;
  testId?: string;
}) {
  return (
    <Accordion disableGutters variant="outlined" defaultExpanded={value !== ''}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>Advanced</AccordionSummary>
      <AccordionDetails>
        <TextField
          size="small"
          fullWidth
          label="Grid query template"
          placeholder="where host = ${host.name}"
          helperText={`Used instead of the dashboard query and the row's filter when the ${what} opens from a table row; \${column} takes the row's value.`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          slotProps={testId ? { htmlInput: { 'data-testid': testId } } : undefined}
        />
      </AccordionDetails>
    </Accordion>
  );
}
