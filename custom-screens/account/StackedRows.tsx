import { Fragment, useId, type ReactNode } from 'react';
import { Box, List, ListItem, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';

/**
 * Whether a table's rows should be stacked items instead: below `md` the columns of the account
 * and admin tables no longer fit (the members table needs ~574 px, a phone gives ~330) and the
 * page would scroll sideways. `md` is also where the shell's navigation becomes an overlay, so
 * the page has the whole window from there down. Read on the first render (`noSsr`), so a phone
 * never paints the table before switching.
 */
export function useStackedRows(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
}

export interface StackedField {
  /** The column header of the wide table. */
  label: string;
  value: ReactNode;
}

/** A table's rows on a narrow screen: a list named like the table. */
export function StackedList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <List aria-label={label} disablePadding>
      {children}
    </List>
  );
}

/**
 * One row as a list item named by its title (the row's first column), the other columns as
 * labelled lines, the row's actions as buttons below.
 */
export function StackedItem({
  title,
  badges,
  fields,
  actions,
}: {
  title: ReactNode;
  /** Beside the title but not part of the item's name (a status chip). */
  badges?: ReactNode;
  fields: StackedField[];
  actions?: ReactNode;
}) {
  const titleId = useId();
  return (
    <ListItem
      disableGutters
      divider
      aria-labelledby={titleId}
      // The last item's line would double the section divider below it.
      sx={{ display: 'block', py: 1.5, '&:last-of-type': { borderBottom: 'none' } }}
    >
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Typography id={titleId} component="span" variant="subtitle1" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {badges}
      </Stack>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          // minmax(0, …): long values (user agents, ids, addresses) wrap instead of widening the page.
          gridTemplateColumns: 'max-content minmax(0, 1fr)',
          columnGap: 2,
          rowGap: 0.5,
          alignItems: 'baseline',
          m: 0,
          mt: 0.5,
        }}
      >
        {fields.map((field) => (
          <Fragment key={field.label}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {field.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {field.value}
            </Typography>
          </Fragment>
        ))}
      </Box>
      {actions && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
          {actions}
        </Stack>
      )}
    </ListItem>
  );
}
