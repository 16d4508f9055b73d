import { useTheme } from '@mui/material';

export interface SparklineProps {
  values: readonly number[];
  /** What the trend says in words, for assistive technology. */
  label: string;
  width?: number;
  height?: number;
}

/**
 * A tiny trend line of the last readings, hand-drawn in SVG: the sidebar shows one per vital, so
 * it must cost nothing to load (the full chart library loads only when a trend is opened).
 */
export function Sparkline({ values, label, width = 72, height = 22 }: SparklineProps) {
  const theme = useTheme();
  if (values.length === 0) return null;
  const pad = 3;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const x = (i: number) => (values.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (values.length - 1));
  const y = (v: number) => (max === min ? height / 2 : height - pad - ((v - min) * (height - 2 * pad)) / span);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const color = theme.palette.primary.main;
  const last = values.length - 1;
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <polyline points={points} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" />
      <circle cx={x(last)} cy={y(values[last] as number)} r={2.5} fill={color} />
    </svg>
  );
}
