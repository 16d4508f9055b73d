import { useState, type ReactNode } from 'react';
import { Box, Button, IconButton, Typography, type SxProps, type Theme } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { COLLAPSED_PAGE_SIZE, itemSummary } from './largeArray';

const listStyle: SxProps<Theme> = {
  listStyle: 'none',
  m: 0,
  p: 0,
  '& > li': { borderBottom: 1, borderColor: 'divider' },
  '& .entry': {
    display: 'flex',
    alignItems: 'baseline',
    gap: 1,
    width: '100%',
    minHeight: 36,
    px: 1,
    py: 0.5,
    border: 0,
    background: 'none',
    color: 'text.primary',
    font: 'inherit',
    typography: 'body2',
    textAlign: 'left',
    cursor: 'pointer',
    borderRadius: 1,
    '&:hover': { bgcolor: 'action.hover' },
    '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid', outlineOffset: -2 },
  },
  '& .chevron': { width: 16, flex: 'none', color: 'text.secondary' },
  '& .name': { fontWeight: 500, whiteSpace: 'nowrap' },
  '& .summary': { color: 'text.secondary', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
};

export interface CollapsedArrayFieldProps {
  label: string;
  type: string;
  items: unknown[];
  min: number;
  max: number;
  disabled: boolean;
  /** Marker after the label: " (Read Only)", " (fixed by the profile)". */
  note: string;
  newItem: () => unknown;
  onItemsChange: (items: unknown[]) => void;
  /** The full input of one entry, mounted only while the entry is open. */
  renderItem: (item: unknown, index: number, onChange: (next: unknown) => void) => ReactNode;
}

/**
 * A long array of structured entries (a StructureDefinition's elements, a Claim's items): one line
 * per entry that opens its inputs on demand (Remove is inside an opened entry), listed a page at a
 * time. Closed entries are kept as they are, so saving an untouched resource changes nothing.
 */
export function CollapsedArrayField(props: CollapsedArrayFieldProps) {
  const { items, label } = props;
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [shown, setShown] = useState(COLLAPSED_PAGE_SIZE);
  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  const remove = (index: number) => {
    props.onItemsChange(items.filter((_, i) => i !== index));
    // Entries after the removed one move up a place, and stay open if they were.
    setOpen((current) => new Set([...current].filter((i) => i !== index).map((i) => (i > index ? i - 1 : i))));
  };
  const add = () => {
    props.onItemsChange([...items, props.newItem()]);
    setOpen((current) => new Set(current).add(items.length));
    setShown((count) => Math.max(count, items.length + 1));
  };
  const visible = Math.min(shown, items.length);
  return (
    // A whole row even inside a datatype's or backbone's side-by-side layout: the lines need the width.
    <Box sx={{ flexBasis: '100%', minWidth: '100%' }} role="group" aria-label={label}>
      <Typography variant="subtitle2" component="div" sx={{ mb: 0.5 }}>
        {label}
        {props.min > 0 ? ' *' : ''}
        {props.note}
        <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
          ({items.length} {items.length === 1 ? 'entry' : 'entries'}, opened one by one)
        </Typography>
      </Typography>
      {/*
        The lines are plain buttons styled once by the list (not a MUI Button each): a snapshot lists
        dozens, and the editor must be ready within its 300 ms budget (tests/bench/browserBenchmark.ts).
      */}
      <Box component="ol" sx={listStyle}>
        {items.slice(0, visible).map((item, index) => {
          const isOpen = open.has(index);
          const itemLabel = `${label} ${index + 1}`;
          return (
            <li key={index}>
              <button type="button" className="entry" aria-expanded={isOpen} onClick={() => toggle(index)}>
                <span className="chevron" aria-hidden="true">
                  {isOpen ? '▾' : '▸'}
                </span>
                <span className="name">{itemLabel}</span>{' '}
                <span className="summary">{itemSummary(item, props.type)}</span>
              </button>
              {isOpen && (
                <Box sx={{ pl: 3, py: 1, display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    {props.renderItem(item, index, (next) => {
                      const copy = [...items];
                      copy[index] = next === undefined ? {} : next;
                      props.onItemsChange(copy);
                    })}
                  </Box>
                  {!props.disabled && items.length > props.min && (
                    <IconButton aria-label={`Remove ${itemLabel}`} onClick={() => remove(index)}>
                      <DeleteIcon />
                    </IconButton>
                  )}
                </Box>
              )}
            </li>
          );
        })}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 0.5 }}>
        {visible < items.length && (
          <Button size="small" onClick={() => setShown((count) => count + COLLAPSED_PAGE_SIZE)}>
            Show {Math.min(COLLAPSED_PAGE_SIZE, items.length - visible)} more ({visible} of {items.length} shown)
          </Button>
        )}
        {!props.disabled && items.length < props.max && (
          <Button size="small" startIcon={<AddIcon />} onClick={add} aria-label={`Add ${label}`}>
            Add {label}
          </Button>
        )}
      </Box>
    </Box>
  );
}
