// Reading a JSON document the program under test wrote (summaries, results): the top-level object, or
// an empty one when the file is missing or not a JSON object (the test's comparisons then fail).
#pragma once

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace telestation::test {

inline QJsonObject readJsonObject(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace telestation::test
