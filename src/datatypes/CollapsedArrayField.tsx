import { useState, type ReactNode } from 'react';
import { Box, Button, IconButton, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { COLLAPSED_PAGE_SIZE, itemSummary } from './largeArray';

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
 * per entry that opens its inputs on demand, listed a page at a time. Closed entries are kept as
 * they are, so saving an untouched resource changes nothing.
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
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {items.slice(0, visible).map((item, index) => {
          const isOpen = open.has(index);
          const itemLabel = `${label} ${index + 1}`;
          return (
            <Box component="li" key={index} sx={{ borderBottom: 1, borderColor: 'divider', py: 0.25 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Button
                  size="small"
                  color="inherit"
                  aria-expanded={isOpen}
                  onClick={() => toggle(index)}
                  startIcon={isOpen ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                  sx={{ flex: 1, justifyContent: 'flex-start', textTransform: 'none', textAlign: 'left', minWidth: 0 }}
                >
                  <Box component="span" sx={{ fontWeight: 500, mr: 1, whiteSpace: 'nowrap' }}>
                    {itemLabel}
                  </Box>
                  <Box
                    component="span"
                    sx={{ color: 'text.secondary', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {itemSummary(item, props.type)}
                  </Box>
                </Button>
                {!props.disabled && items.length > props.min && (
                  <IconButton size="small" aria-label={`Remove ${itemLabel}`} onClick={() => remove(index)}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                )}
              </Box>
              {isOpen && (
                <Box sx={{ pl: 4, py: 1 }}>
                  {props.renderItem(item, index, (next) => {
                    const copy = [...items];
                    copy[index] = next === undefined ? {} : next;
                    props.onItemsChange(copy);
                  })}
                </Box>
              )}
            </Box>
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
