import { LineChart } from '@mui/x-charts/LineChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { useTheme } from '@mui/material';
import type { VitalDefinition } from '../../../config/clinical/vitals';
import type { VitalReading } from './rules/vitalReadings';
import { readableDate } from '../../../data-provider/formatting';
import { displayUnit } from './vitalRows';

export interface VitalTrendChartProps {
  series: { definition: VitalDefinition; readings: VitalReading[] }[];
}

/**
 * The chart over time of one vital (two lines for blood pressure) with its reference range as
 * dashed lines. Loaded lazily: @mui/x-charts is fetched only when a clinician opens a trend.
 */
export default function VitalTrendChart({ series }: VitalTrendChartProps) {
  const theme = useTheme();
  const times = [...new Set(series.flatMap((s) => s.readings.map((r) => r.time)))].sort((a, b) => a - b);
  const rangeColor = theme.palette.mode === 'dark' ? theme.palette.success.light : theme.palette.success.dark;
  const unit = displayUnit(series[0]?.definition.unit ?? '');
  // The axis spans the readings and the reference range, so the range lines are always in view.
  const bounds = series.flatMap((s) => [
    ...s.readings.map((r) => r.value),
    ...(s.definition.referenceRange ? [s.definition.referenceRange.low, s.definition.referenceRange.high] : []),
  ]);
  const low = Math.min(...bounds);
  const high = Math.max(...bounds);
  const margin = (high - low) * 0.1 || 1;
  return (
    <LineChart
      height={280}
      skipAnimation
      xAxis={[
        {
          data: times.map((t) => new Date(t)),
          scaleType: 'time',
          valueFormatter: (value: Date) => readableDate(value.toISOString()),
        },
      ]}
      yAxis={[{ label: unit, min: Math.floor(low - margin), max: Math.ceil(high + margin) }]}
      series={series.map((s) => {
        const byTime = new Map(s.readings.map((r) => [r.time, r.value]));
        return {
          id: s.definition.key,
          label: s.definition.label,
          data: times.map((t) => byTime.get(t) ?? null),
          connectNulls: true,
          // Straight segments and a mark per reading: a smoothed curve would invent values between visits.
          curve: 'linear' as const,
          showMark: true,
          valueFormatter: (value: number | null) => (value === null ? '' : `${value} ${unit}`),
        };
      })}
      hideLegend={series.length < 2}
    >
      {series.flatMap((s) =>
        s.definition.referenceRange
          ? [
              <ChartsReferenceLine
                key={`${s.definition.key}-high`}
                y={s.definition.referenceRange.high}
                label={`${series.length > 1 ? `${s.definition.label} ` : ''}high ${s.definition.referenceRange.high}`}
                labelAlign="end"
                lineStyle={{ stroke: rangeColor, strokeDasharray: '4 4' }}
                labelStyle={{ fill: theme.palette.text.secondary, fontSize: 11 }}
              />,
              <ChartsReferenceLine
                key={`${s.definition.key}-low`}
                y={s.definition.referenceRange.low}
                label={`${series.length > 1 ? `${s.definition.label} ` : ''}low ${s.definition.referenceRange.low}`}
                labelAlign="start"
                lineStyle={{ stroke: rangeColor, strokeDasharray: '4 4' }}
                labelStyle={{ fill: theme.palette.text.secondary, fontSize: 11 }}
              />,
            ]
          : [],
      )}
    </LineChart>
  );
}
