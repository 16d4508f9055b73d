import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { Attachment, CodeableConcept, Coding, Reference } from '@medplum/fhirtypes';
import { childElements, type ElementSchema, type TypeSchema } from '../resources/typeSchema';
import { fieldLabel } from '../search/searchColumns';
import { readableTimestamp } from '../../data-provider/formatting';
import { AttachmentLink } from './AttachmentLink';
import { CodedValue } from './CodedValue';
import { formatTypedValue } from './formatValue';
import { NarrativeView } from './NarrativeView';
import { StatusBadge } from './StatusBadge';
import { useReferenceName } from './useReferenceName';

const FORMATTED_TYPES = new Set([
  'HumanName',
  'Address',
  'ContactPoint',
  'Identifier',
  'CodeableConcept',
  'Coding',
  'Quantity',
  'Age',
  'Count',
  'Distance',
  'Duration',
  'SimpleQuantity',
  'MoneyQuantity',
  'Money',
  'Range',
  'Ratio',
  'Period',
  'Annotation',
  'date',
  'dateTime',
  'instant',
  'boolean',
]);

/** A reference as a link to what it points at, named by its display or else by the target's own name. */
function ReferenceValue({ reference }: { reference: Reference }) {
  const name = useReferenceName(reference);
  const label = name ?? formatTypedValue(reference, 'Reference');
  return reference.reference && /^[A-Z][A-Za-z]+\/[^/]+$/.test(reference.reference) ? (
    <Link component={RouterLink} to={`/${reference.reference}`} title={name ? reference.reference : undefined}>
      {label}
    </Link>
  ) : (
    <Typography variant="body2">{label}</Typography>
  );
}

/** The value(s) of one element of a resource, formatted by the element's type. */
export function ElementValue(props: { value: unknown; type: string; schema: TypeSchema; path: string; name: string }) {
  const values = Array.isArray(props.value) ? props.value : [props.value];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
      {values.map((value, index) => (
        <SingleValue key={index} {...props} value={value} />
      ))}
    </Box>
  );
}

function SingleValue(props: { value: unknown; type: string; schema: TypeSchema; path: string; name: string }) {
  const { value, type } = props;
  if (value === undefined || value === null) return null;
  if (props.name === 'status' && typeof value === 'string') return <StatusBadge status={value} />;
  if (type === 'Narrative') {
    const div = (value as { div?: string }).div;
    return div ? <NarrativeView div={div} /> : null;
  }
  if (type === 'Reference') return <ReferenceValue reference={value as Reference} />;
  if (type === 'Coding' || type === 'CodeableConcept') {
    return <CodedValue value={value as Coding | CodeableConcept} type={type} />;
  }
  if (type === 'Attachment') {
    const attachment = value as Attachment;
    // Its address is whatever the writer put there: only this server's file is a link (AttachmentLink).
    return attachment.url ? (
      <AttachmentLink attachment={attachment} name={attachment.title ?? attachment.contentType ?? 'Attachment'} />
    ) : (
      <Typography variant="body2">{formatTypedValue(value, 'Attachment')}</Typography>
    );
  }
  if (type === 'BackboneElement' || type === 'Element') {
    const children = childElements(props.schema, props.path);
    return <ElementList elements={children} value={value as Record<string, unknown>} schema={props.schema} nested />;
  }
  if (typeof value === 'object' && !FORMATTED_TYPES.has(type)) return <ObjectValue value={value} />;
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {formatTypedValue(value, type)}
    </Typography>
  );
}

/** Datatypes without their own display (Timing, Dosage, Meta…): their present fields, recursively. */
function ObjectValue(props: { value: object }) {
  return (
    <Box component="dl" sx={{ m: 0, pl: 1, borderLeft: 2, borderColor: 'divider' }}>
      {Object.entries(props.value).map(([key, inner]) => (
        <Box key={key} sx={{ display: 'flex', gap: 1 }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ minWidth: 90 }}>
            {fieldLabel(key)}
          </Typography>
          <Box component="dd" sx={{ m: 0 }}>
            {inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (
              <ObjectValue value={inner} />
            ) : Array.isArray(inner) ? (
              inner.map((one, index) =>
                typeof one === 'object' ? (
                  <ObjectValue key={index} value={one} />
                ) : (
                  <LeafValue key={index} value={one} />
                ),
              )
            ) : (
              <LeafValue value={inner} />
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/**
 * A primitive inside a value shown without its schema (`meta`, an extension's object): an instant
 * reads as people read dates ("29 Nov 2026, 12:51 AM"), the stored value on hover.
 */
function LeafValue({ value }: { value: unknown }) {
  const readable = readableTimestamp(value);
  return (
    <Typography variant="body2" title={readable ? String(value) : undefined}>
      {readable ?? String(value)}
    </Typography>
  );
}

/** The value of a choice element (`value[x]`) and its type, found by the typed key present. */
export function choiceValue(
  record: Record<string, unknown>,
  element: ElementSchema,
): { value: unknown; type: string } | undefined {
  for (const type of element.types) {
    const key = element.name + type.charAt(0).toUpperCase() + type.slice(1);
    if (record[key] !== undefined) return { value: record[key], type };
  }
  return undefined;
}

/** Every present element of a resource or backbone element, label and formatted value. */
export function ElementList(props: {
  elements: ElementSchema[];
  value: Record<string, unknown>;
  schema: TypeSchema;
  nested?: boolean;
  hidden?: readonly string[];
}) {
  const rows = props.elements.flatMap((element) => {
    if (props.hidden?.includes(element.path)) return [];
    if (element.path.endsWith('[x]')) {
      const found = choiceValue(props.value, element);
      return found ? [{ element, ...found }] : [];
    }
    const value = props.value[element.name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
    const type = element.contentReference ? 'BackboneElement' : (element.types[0] ?? 'string');
    return [
      { element: element.contentReference ? { ...element, path: element.contentReference } : element, value, type },
    ];
  });
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: props.nested ? 'minmax(90px, max-content) 1fr' : 'minmax(140px, 220px) 1fr',
        columnGap: 2,
        rowGap: 1,
        ...(props.nested ? { pl: 1, borderLeft: 2, borderColor: 'divider' } : {}),
      }}
    >
      {rows.map(({ element, value, type }) => (
        <Box key={element.path} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
            {fieldLabel(element.name)}
          </Typography>
          <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
            <ElementValue value={value} type={type} schema={props.schema} path={element.path} name={element.name} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}
